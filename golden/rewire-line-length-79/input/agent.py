# Case: a project whose ruff line length is 79: every line fix writes fits
# it (the dataclass field and the advertise call wrap as black and ruff do).
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from acp import PROTOCOL_VERSION, Client
from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse


@dataclass
class NarrowAgent:
    connection: Client
    sessions: set[str] = field(default_factory=set)

    async def initialize(
        self, protocol_version: int, **kwargs: Any
    ) -> InitializeResponse:
        return InitializeResponse.create(
            protocol_version=min(protocol_version, PROTOCOL_VERSION),
            slash_commands=[
                AvailableCommand(name="web", description="Search the web"),
            ],
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        session_id = uuid.uuid4().hex
        self.sessions.add(session_id)
        return NewSessionResponse(session_id=session_id)
