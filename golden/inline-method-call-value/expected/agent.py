# Case: the command list is passed inline as slash_commands=self.get_skill_commands()
from __future__ import annotations

from typing import Any

from acp.schema import InitializeResponse

from .skills import SkillBridge


class SkillAgent:
    def __init__(self, bridge: SkillBridge) -> None:
        self._bridge = bridge

    def get_skill_commands(self):
        return self._bridge.as_available_commands()

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        # acp-migrate: TODO: advertise `self.get_skill_commands()` per session; not moved automatically: class `SkillAgent` has no session setup handler
        return InitializeResponse.create(
            protocol_version=protocol_version,
            name="skill-agent",
            version="0.4.1",
            load_session=False,
        )
