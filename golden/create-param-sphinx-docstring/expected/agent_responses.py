# Case: create parameter documented Sphinx-style (:param: and :type:) in a one-line signature
from __future__ import annotations

from pydantic import BaseModel

from acp.schema import AgentCapabilities


class InitializeResponse(BaseModel):
    protocol_version: int
    agent_capabilities: AgentCapabilities

    @classmethod
    def create(cls, protocol_version: int, load_session: bool = False) -> InitializeResponse:
        """Create an instance of AgentCapabilities.

        :param protocol_version: Negotiated protocol version.
        :param load_session: Whether ``session/load`` is supported.
        :returns: The initialize response.
        """
        return cls(
            protocol_version=protocol_version,
            agent_capabilities=AgentCapabilities(load_session=load_session),
        )
