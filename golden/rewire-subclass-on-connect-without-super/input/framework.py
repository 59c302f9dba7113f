# Case: the application's subclass (app.py, a file fix never reads) overrides
# on_connect without calling super(). The advertiser is bound first thing in
# initialize, from the attribute on_connect fills, so the subclass's sessions
# get the commands too.
from __future__ import annotations

import uuid
from typing import Any

from acp import PROTOCOL_VERSION, Client
from acp.schema import AvailableCommand, InitializeResponse, LoadSessionResponse, NewSessionResponse


class FrameworkAgent:
    def __init__(self) -> None:
        self._conn: Client | None = None

    def on_connect(self, conn: Client) -> None:
        self._conn = conn

    def commands(self) -> list[AvailableCommand]:
        return [AvailableCommand(name="web", description="Search the web")]

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse.create(
            protocol_version=min(protocol_version, PROTOCOL_VERSION),
            load_session=True,
            slash_commands=self.commands(),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=uuid.uuid4().hex)

    async def load_session(self, cwd: str, session_id: str, **kwargs: Any) -> LoadSessionResponse:
        return LoadSessionResponse()
