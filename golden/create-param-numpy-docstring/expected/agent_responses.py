# Case: create parameter documented NumPy-style; it was the only keyword-only one, so the bare * goes too
from __future__ import annotations

from pydantic import BaseModel

from acp.schema import AgentCapabilities, Implementation


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

        Returns
        -------
        InitializeResponse
        """
        caps = AgentCapabilities.create(load_session=load_session)
        return cls(protocol_version=protocol_version, agent_capabilities=caps, agent_info=agent_info)
