# Case: owned AgentCapabilities.create forwards list(slash_commands) if slash_commands else None on one line
from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, Field

from acp.schema import AvailableCommand


class AgentCapabilities(BaseModel):
    """Capabilities supported by the agent."""

    load_session: bool = Field(default=False, alias="loadSession")
    """Whether the agent supports `session/load`."""

    slash_commands: list[AvailableCommand] | None = Field(default=None, alias="slashCommands")
    """Commands advertised at initialize, or None when the agent has none."""

    @classmethod
    def create(cls, load_session: bool = False, slash_commands: Iterable[AvailableCommand] | None = None) -> AgentCapabilities:
        """Create agent capabilities."""
        return cls(load_session=load_session, slash_commands=list(slash_commands) if slash_commands else None)
