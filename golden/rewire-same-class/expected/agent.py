# Case: the agent's initialize list moves into every setup handler of the same class
from __future__ import annotations

import uuid
from typing import Any

from acp import PROTOCOL_VERSION, Client
from acp.schema import (
    AvailableCommand,
    ForkSessionResponse,
    InitializeResponse,
    LoadSessionResponse,
    NewSessionResponse,
    ResumeSessionResponse,
)
from acp_migrate.runtime import CommandAdvertiser


class SkillAgent:
    def __init__(self) -> None:
        self._conn: Client | None = None
        self._sessions: set[str] = set()
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn: Client) -> None:
        self._conn = conn

    def get_skill_commands(self) -> list[AvailableCommand]:
        return [AvailableCommand(name="web", description="Search the web")]

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self._conn)
        self.command_advertiser.advertise(self.get_skill_commands)
        return InitializeResponse.create(
            protocol_version=min(protocol_version, PROTOCOL_VERSION),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        session_id = uuid.uuid4().hex
        self._sessions.add(session_id)
        return NewSessionResponse(session_id=session_id)

    async def load_session(self, cwd: str, session_id: str, **kwargs: Any) -> LoadSessionResponse:
        self._sessions.add(session_id)
        return LoadSessionResponse()

    async def resume_session(self, cwd: str, session_id: str, **kwargs: Any) -> ResumeSessionResponse:
        if session_id not in self._sessions:
            raise ValueError(session_id)
        return ResumeSessionResponse()

    async def fork_session(self, cwd: str, session_id: str, **kwargs: Any) -> ForkSessionResponse:
        forked = uuid.uuid4().hex
        self._sessions.add(forked)
        return ForkSessionResponse(session_id=forked)
