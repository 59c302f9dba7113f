# Case: the keyword is in a helper method that initialize calls (self._capabilities()): its list moves into the setup handlers as from initialize
from __future__ import annotations

import uuid
from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import (
    AgentCapabilities,
    AvailableCommand,
    InitializeResponse,
    LoadSessionResponse,
    NewSessionResponse,
)
from acp_migrate.runtime import CommandAdvertiser


class HelperAgent:
    def __init__(self) -> None:
        self.conn = None
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn) -> None:
        self.conn = conn

    def skills(self) -> list[AvailableCommand]:
        return [
            AvailableCommand(name="web", description="Search the web"),
            AvailableCommand(name="test", description="Run the tests"),
        ]

    def _capabilities(self) -> AgentCapabilities:
        return AgentCapabilities(load_session=True)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(self.skills)
        return InitializeResponse(
            protocol_version=min(protocol_version, PROTOCOL_VERSION),
            agent_capabilities=self._capabilities(),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=uuid.uuid4().hex)

    async def load_session(self, cwd: str, session_id: str, **kwargs: Any) -> LoadSessionResponse:
        return LoadSessionResponse()
