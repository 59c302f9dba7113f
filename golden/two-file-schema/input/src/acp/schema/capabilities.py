# Case: two-file owned schema as in RFC-0032 (capabilities.py defines the field, agent_responses.py forwards)
"""Capability models exchanged during `initialize`."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from acp.schema.base import AnnotatedObject
from acp.schema.mcp import McpCapabilities
from acp.schema.prompt import PromptCapabilities
from acp.schema.slash_commands import AvailableCommand


class AgentCapabilities(AnnotatedObject):
    """Capabilities supported by the agent."""

    load_session: bool | None = False
    """Whether the agent supports `session/load`."""

    mcp_capabilities: McpCapabilities | None = Field(default_factory=McpCapabilities)
    """MCP capabilities supported by the agent."""

    slash_commands: list[AvailableCommand] = Field(default_factory=list)
    """Slash commands the agent exposes (RFC-0016)."""

    prompt_capabilities: PromptCapabilities | None = Field(default_factory=PromptCapabilities)
    """Prompt capabilities supported by the agent."""

    @classmethod
    def create(
        cls,
        load_session: bool = False,
        mcp_capabilities: McpCapabilities | None = None,
        slash_commands: Sequence[AvailableCommand] | None = None,
        prompt_capabilities: PromptCapabilities | None = None,
    ) -> AgentCapabilities:
        """Create an instance of AgentCapabilities."""
        return cls(
            load_session=load_session,
            mcp_capabilities=mcp_capabilities or McpCapabilities(),
            slash_commands=list(slash_commands or []),
            prompt_capabilities=prompt_capabilities or PromptCapabilities(),
        )
