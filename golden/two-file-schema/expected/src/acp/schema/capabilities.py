# Case: two-file owned schema as in RFC-0032 (capabilities.py defines the field, agent_responses.py forwards)
"""Capability models exchanged during `initialize`."""

from __future__ import annotations

from pydantic import Field

from acp.schema.base import AnnotatedObject
from acp.schema.mcp import McpCapabilities
from acp.schema.prompt import PromptCapabilities


class AgentCapabilities(AnnotatedObject):
    """Capabilities supported by the agent."""

    load_session: bool | None = False
    """Whether the agent supports `session/load`."""

    mcp_capabilities: McpCapabilities | None = Field(default_factory=McpCapabilities)
    """MCP capabilities supported by the agent."""

    prompt_capabilities: PromptCapabilities | None = Field(default_factory=PromptCapabilities)
    """Prompt capabilities supported by the agent."""

    @classmethod
    def create(
        cls,
        load_session: bool = False,
        mcp_capabilities: McpCapabilities | None = None,
        prompt_capabilities: PromptCapabilities | None = None,
    ) -> AgentCapabilities:
        """Create an instance of AgentCapabilities."""
        return cls(
            load_session=load_session,
            mcp_capabilities=mcp_capabilities or McpCapabilities(),
            prompt_capabilities=prompt_capabilities or PromptCapabilities(),
        )
