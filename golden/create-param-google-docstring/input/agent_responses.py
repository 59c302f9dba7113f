# Case: InitializeResponse.create parameter documented Google-style (Args:); keyword-only, the bare * stays
from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from acp.schema import AgentCapabilities, AvailableCommand, Implementation, McpCapabilities


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
        slash_commands: Sequence[AvailableCommand] | None = None,
        mcp_capabilities: McpCapabilities | None = None,
    ) -> InitializeResponse:
        """Create an instance of AgentCapabilities.

        Args:
            protocol_version: Negotiated protocol version.
            name: Agent name shown by clients.
            version: Agent version.
            load_session: Whether the agent supports `session/load`.
            slash_commands: Commands advertised at initialize time.
                Superseded by per-session `available_commands_update`.
            mcp_capabilities: MCP transports the agent supports.

        Returns:
            The initialize response.
        """
        caps = AgentCapabilities(
            load_session=load_session,
            mcp_capabilities=mcp_capabilities or McpCapabilities(),
            slash_commands=slash_commands or [],
        )
        return cls(
            protocol_version=protocol_version,
            agent_capabilities=caps,
            agent_info=Implementation(name=name, version=version),
        )
