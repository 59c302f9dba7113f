# Case (negative): a server class stores its own slash_commands and sends them per session (compliant path)
from typing import Any

from acp.schema import (
    AgentCapabilities,
    AvailableCommand,
    AvailableCommandsUpdate,
    InitializeResponse,
    NewSessionResponse,
)


class CommandServer:
    def __init__(self, connection, slash_commands: list[AvailableCommand]) -> None:
        self._conn = connection
        self.slash_commands = slash_commands

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(
            protocol_version=protocol_version,
            agent_capabilities=AgentCapabilities(load_session=True),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        session_id = f"sess-{len(self.slash_commands)}-{id(cwd)}"
        await self._conn.session_update(
            session_id=session_id,
            update=AvailableCommandsUpdate(
                session_update="available_commands_update",
                available_commands=self.slash_commands,
            ),
        )
        return NewSessionResponse(session_id=session_id)
