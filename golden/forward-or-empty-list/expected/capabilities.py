# Case: owned AgentCapabilities.create forwards slash_commands=slash_commands or [] to cls(...): field, parameter, keyword go
from __future__ import annotations

from pydantic import BaseModel, Field

from acp.schema import McpCapabilities


class AgentCapabilities(BaseModel):
    """Capabilities supported by the agent."""

    load_session: bool = False
    mcp_capabilities: McpCapabilities = Field(default_factory=McpCapabilities)

    @classmethod
    def create(
        cls,
        load_session: bool = False,
        mcp_capabilities: McpCapabilities | None = None,
    ) -> AgentCapabilities:
        return cls(
            load_session=load_session,
            mcp_capabilities=mcp_capabilities or McpCapabilities(),
        )
