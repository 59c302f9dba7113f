# Case: owned AgentCapabilities.create forwards list(slash_commands) if slash_commands else None on one line
from __future__ import annotations

from pydantic import BaseModel, Field


class AgentCapabilities(BaseModel):
    """Capabilities supported by the agent."""

    load_session: bool = Field(default=False, alias="loadSession")
    """Whether the agent supports `session/load`."""

    @classmethod
    def create(cls, load_session: bool = False) -> AgentCapabilities:
        """Create agent capabilities."""
        return cls(load_session=load_session)
