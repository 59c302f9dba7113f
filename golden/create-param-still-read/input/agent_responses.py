# Case: the create() parameter is still read in the body (deprecation warning), so fix keeps it and reports ACP003
from __future__ import annotations

import warnings

from pydantic import BaseModel

from acp.schema import AgentCapabilities, AvailableCommand, Implementation


class InitializeResponse(BaseModel):
    protocol_version: int
    agent_capabilities: AgentCapabilities
    agent_info: Implementation

    @classmethod
    def create(
        cls,
        protocol_version: int,
        agent_info: Implementation,
        slash_commands: list[AvailableCommand] | None = None,
    ) -> InitializeResponse:
        """Build the initialize response; commands are advertised per session."""
        if slash_commands:
            warnings.warn(
                f"{len(slash_commands)} slash commands ignored; advertise them per session",
                DeprecationWarning,
                stacklevel=2,
            )
        return cls(
            protocol_version=protocol_version,
            agent_capabilities=AgentCapabilities(load_session=True),
            agent_info=agent_info,
        )
