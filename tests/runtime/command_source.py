"""Code elsewhere in a server that sends its own command lists straight to the connection.

It knows nothing of the advertiser: once the advertiser is bound, these sends go
through it anyway (held until the setup response is out, merged, de-duplicated).
"""

from __future__ import annotations

import asyncio
from typing import Any

from acp.schema import AvailableCommandsUpdate


class CommandSource:
    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.tasks: set[asyncio.Task[None]] = set()

    async def send(self, session_id: str, commands: list[dict[str, Any]]) -> None:
        update = AvailableCommandsUpdate(session_update="available_commands_update", available_commands=commands)
        await self.conn.session_update(session_id, update)

    def send_soon(
        self, session_id: str, commands: list[dict[str, Any]], after: asyncio.Event | None = None
    ) -> asyncio.Task[None]:
        """From a task of its own (started once ``after`` is set), as a handler that does not await it."""

        async def run() -> None:
            if after is not None:
                await after.wait()
            await self.send(session_id, commands)

        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task
