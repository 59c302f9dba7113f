# Case: create parameter documented NumPy-style; it was the only keyword-only one, so the bare * goes too
from __future__ import annotations

from collections.abc import Sequence

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
        load_session: bool = False,
        *,
        slash_commands: Sequence[AvailableCommand] = (),
    ) -> InitializeResponse:
        """Build the initialize response.

        Parameters
        ----------
        protocol_version : int
            Negotiated protocol version.
        agent_info : Implementation
            Name and version of the agent.
        load_session : bool, optional
            Whether the agent supports ``session/load``.
        slash_commands : Sequence[AvailableCommand], optional
            Commands advertised at initialize time. Clients
            show them in their command palette.

        Returns
        -------
        InitializeResponse
        """
        caps = AgentCapabilities.create(load_session=load_session, slash_commands=list(slash_commands))
        return cls(protocol_version=protocol_version, agent_capabilities=caps, agent_info=agent_info)
