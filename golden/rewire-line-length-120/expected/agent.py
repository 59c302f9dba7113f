# Case: a project whose ruff line length is 120: a call that fits 120 columns stays on one line.
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from acp import PROTOCOL_VERSION, Client
from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


@dataclass
class WideAgent:
    connection: Client
    sessions: set[str] = field(default_factory=set)
    command_advertiser: CommandAdvertiser = field(default_factory=CommandAdvertiser, init=False, repr=False)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self.connection)
        self.command_advertiser.advertise(lambda: [AvailableCommand(name="web", description="Search the web")])
        return InitializeResponse.create(
            protocol_version=min(protocol_version, PROTOCOL_VERSION),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        session_id = uuid.uuid4().hex
        self.sessions.add(session_id)
        return NewSessionResponse(session_id=session_id)
