# Case: create parameter documented Sphinx-style (:param: and :type:) in a one-line signature
from __future__ import annotations

from pydantic import BaseModel

from acp.schema import AgentCapabilities, AvailableCommand


class InitializeResponse(BaseModel):
    protocol_version: int
    agent_capabilities: AgentCapabilities

    @classmethod
    def create(cls, protocol_version: int, slash_commands: list[AvailableCommand] | None = None, load_session: bool = False) -> InitializeResponse:
        """Create an instance of AgentCapabilities.

        :param protocol_version: Negotiated protocol version.
        :param slash_commands: Commands advertised at initialize;
            superseded by ``available_commands_update``.
        :type slash_commands: list[AvailableCommand] | None
        :param load_session: Whether ``session/load`` is supported.
        :returns: The initialize response.
        """
        return cls(
            protocol_version=protocol_version,
            agent_capabilities=AgentCapabilities(load_session=load_session, slash_commands=slash_commands),
        )
