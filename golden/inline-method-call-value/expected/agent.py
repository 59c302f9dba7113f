# Case: the command list is passed inline as slash_commands=self.get_skill_commands(): the call itself moves into new_session
from __future__ import annotations

from typing import Any

from acp.schema import InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser

from .skills import SkillBridge


class SkillAgent:
    def __init__(self, bridge: SkillBridge) -> None:
        self._bridge = bridge
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn) -> None:
        self._conn = conn

    def get_skill_commands(self):
        return self._bridge.as_available_commands()

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self._conn)
        self.command_advertiser.advertise(self.get_skill_commands)
        return InitializeResponse.create(
            protocol_version=protocol_version,
            name="skill-agent",
            version="0.4.1",
            load_session=False,
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s1")
