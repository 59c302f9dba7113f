# Case: InitializeResponse.create parameter documented Google-style (Args:); keyword-only, the bare * stays
from __future__ import annotations

from pydantic import BaseModel, Field

from acp.schema import AgentCapabilities, Implementation, McpCapabilities


class InitializeResponse(BaseModel):
    """Response to the `initialize` method."""

    protocol_version: int = Field(alias="protocolVersion")
    agent_capabilities: AgentCapabilities = Field(alias="agentCapabilities")
    agent_info: Implementation | None = Field(default=None, alias="agentInfo")

    @classmethod
    def create(
        cls,
        protocol_version: int,
        name: str,
        version: str,
        *,
        load_session: bool = False,
        mcp_capabilities: McpCapabilities | None = None,
    ) -> InitializeResponse:
        """Create an instance of AgentCapabilities.

        Args:
            protocol_version: Negotiated protocol version.
            name: Agent name shown by clients.
            version: Agent version.
            load_session: Whether the agent supports `session/load`.
            mcp_capabilities: MCP transports the agent supports.

        Returns:
            The initialize response.
        """
        caps = AgentCapabilities(
            load_session=load_session,
            mcp_capabilities=mcp_capabilities or McpCapabilities(),
        )
        return cls(
            protocol_version=protocol_version,
            agent_capabilities=caps,
            agent_info=Implementation(name=name, version=version),
        )
