# Case: the TYPE_CHECKING block keeps another import after AvailableCommand leaves it, so the block stays
from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel

from acp.schema import AgentCapabilities, AuthMethod

if TYPE_CHECKING:
    from collections.abc import Sequence


class InitializeResponse(BaseModel):
    protocol_version: int
    agent_capabilities: AgentCapabilities
    auth_methods: list[AuthMethod] = []

    @classmethod
    def create(
        cls,
        protocol_version: int,
        auth_methods: Sequence[AuthMethod] = (),
    ) -> InitializeResponse:
        return cls(
            protocol_version=protocol_version,
            agent_capabilities=AgentCapabilities.create(),
            auth_methods=list(auth_methods),
        )
