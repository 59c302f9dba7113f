# Case: scope-aware local removal: skill_commands goes in initialize (its value moves into new_session), the same name in new_session stays
from typing import Any

from acp.schema import AvailableCommandsUpdate, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


class SkillAgent:
    def on_connect(self, conn) -> None:
        self._conn = conn
        self.command_advertiser = CommandAdvertiser().bind(conn)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.advertise(self.get_skill_commands)
        return InitializeResponse.create(
            protocol_version=protocol_version,
            name="skill-agent",
            version="1.0.0",
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        session_id = self.sessions.open(cwd)
        skill_commands = self.get_skill_commands()
        await self._conn.session_update(
            session_id=session_id,
            update=AvailableCommandsUpdate(
                session_update="available_commands_update",
                available_commands=skill_commands,
            ),
        )
        return NewSessionResponse(session_id=session_id)
