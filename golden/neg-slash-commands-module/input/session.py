# Case (negative): a module named slash_commands is imported; nothing is advertised at initialize
from __future__ import annotations

from acp.schema import AvailableCommandsUpdate
from acp.schema.slash_commands import AvailableCommand, AvailableCommandInput


class ACPSession:
    def __init__(self, session_id: str, connection) -> None:
        self.session_id = session_id
        self._conn = connection
        self.command_store: dict[str, AvailableCommand] = {}

    def register(self, name: str, description: str, hint: str | None = None) -> None:
        spec = AvailableCommandInput(hint=hint) if hint else None
        self.command_store[name] = AvailableCommand(name=name, description=description, input=spec)

    async def send_available_commands_update(self) -> None:
        update = AvailableCommandsUpdate(
            session_update="available_commands_update",
            available_commands=list(self.command_store.values()),
        )
        await self._conn.session_update(session_id=self.session_id, update=update)
