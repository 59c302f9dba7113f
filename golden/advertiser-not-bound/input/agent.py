# Case: a hand migration gave the advertiser the list but never bound it: the agent
# runs and advertises nothing. Reported (ACP010); fix leaves it to a person.
from __future__ import annotations

import uuid
from typing import Any

from acp import PROTOCOL_VERSION, Client
from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse

from acp_migrate.runtime import CommandAdvertiser


class HandMigratedAgent:
    def __init__(self) -> None:
        self._conn: Client | None = None
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn: Client) -> None:
        self._conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.advertise([AvailableCommand(name="web", description="Search the web")])
        return InitializeResponse(protocol_version=min(protocol_version, PROTOCOL_VERSION))

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=uuid.uuid4().hex)
