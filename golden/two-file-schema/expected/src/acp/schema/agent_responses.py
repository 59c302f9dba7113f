"""Responses sent by the agent."""

from __future__ import annotations

from pydantic import Field

from acp.schema.base import AnnotatedObject
from acp.schema.capabilities import AgentCapabilities
from acp.schema.implementation import Implementation


class InitializeResponse(AnnotatedObject):
    """Response to the `initialize` method."""

    protocol_version: int
    agent_capabilities: AgentCapabilities | None = Field(default_factory=AgentCapabilities)
    agent_info: Implementation | None = None

    @classmethod
    def create(
        cls,
        protocol_version: int,
        name: str,
        version: str,
        title: str | None = None,
        load_session: bool = False,
    ) -> InitializeResponse:
        """Create an instance of AgentCapabilities.

        Args:
            protocol_version: The protocol version the agent speaks.
            name: The agent's name.
            version: The agent's version.
            title: Human-readable title.
            load_session: Whether the agent supports `session/load`.
        """
        caps = AgentCapabilities.create(
            load_session=load_session,
        )
        info = Implementation(name=name, title=title, version=version)
        return cls(protocol_version=protocol_version, agent_capabilities=caps, agent_info=info)
