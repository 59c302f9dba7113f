# Case (negative): an agent already migrated: commands go out per session, initialize advertises none
from typing import Any

from acp.schema import (
    AvailableCommandsUpdate,
    Implementation,
    InitializeResponse,
    NewSessionResponse,
)


class MigratedAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse.create(
            protocol_version=protocol_version,
            name="migrated-agent",
            version="2.0.0",
            load_session=True,
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        session = await self.sessions.create(cwd)
        update = AvailableCommandsUpdate(
            session_update="available_commands_update",
            available_commands=session.get_acp_commands(),
        )
        self.tasks.create_task(self._conn.session_update(session_id=session.id, update=update))
        return NewSessionResponse(session_id=session.id)

    def info(self) -> Implementation:
        return Implementation(name="migrated-agent", version="2.0.0")
