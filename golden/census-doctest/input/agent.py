"""The planner agent.

>>> from acp.schema import AgentCapabilities
>>> capabilities().slash_commands[0].name
'plan'
"""

from acp.schema import AgentCapabilities


def capabilities() -> AgentCapabilities:
    return AgentCapabilities(load_session=True)
