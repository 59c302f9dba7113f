# Part of the case: the project's own schema module agent.py imports AgentCapabilities from
"""The project's schema models: the SDK's, re-exported."""

from acp.schema import AgentCapabilities

__all__ = ["AgentCapabilities"]
