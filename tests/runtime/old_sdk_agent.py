"""An agent written for ACP SDK 0.4-0.6 (request objects, camelCase methods), on stdio.

Run with an SDK 0.4.9/0.5.0/0.6.3 interpreter (tests/support/sdk_venv.py) and this
checkout on PYTHONPATH. As a migrated server of that era looks:

* the agent factory gets the AgentSideConnection before it has a connection, so
  the advertiser is bound late, at the top of ``initialize``;
* ``newSession``/``loadSession`` start a task that sends the session's own list
  straight to the connection (``conn.sessionUpdate(SessionNotification(...))``),
  then await: the task runs before the handler returns, the race the shim fixes;
* they return ``attach(..., always=ALWAYS)``: the list the migration moved out of
  ``initialize``.

``--no-shim`` runs the same handlers without the advertiser (the negative control).
The agent answers ``protocolVersion`` with what the client asks for, capped at 2,
so a client can negotiate v2 with it. ``_sync`` (an extension request) is a barrier.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from acp import (
    AgentSideConnection,
    InitializeResponse,
    NewSessionResponse,
    PromptResponse,
    stdio_streams,
)
from acp.schema import (
    AgentCapabilities,
    AvailableCommand,
    AvailableCommandsUpdate,
    SessionNotification,
)

from acp_migrate.runtime import CommandAdvertiser

OWN = [
    {"name": "web", "description": "Search the web", "input": {"hint": "query"}},
    {"name": "test", "description": "Run the tests"},
]
OWN_LOAD = [{"name": "resume-work", "description": "Pick up where the session stopped"}]
ALWAYS = [
    {"name": "skill", "description": "A skill the server advertised in initialize"},
    {"name": "test", "description": "Also in the own list: the own one wins"},
]


class OldSdkAgent:
    def __init__(self, conn: AgentSideConnection, shim: bool) -> None:
        self._conn = conn  # no inner connection yet: the SDK creates it after this factory
        self.shim = shim
        self.command_advertiser = CommandAdvertiser()
        self.tasks: set[asyncio.Task[None]] = set()
        self.count = 0

    async def initialize(self, params: Any) -> InitializeResponse:
        if self.shim:
            self.command_advertiser.bind(self._conn)
        return InitializeResponse(
            protocolVersion=min(params.protocolVersion, 2), agentCapabilities=AgentCapabilities(loadSession=True)
        )

    def _send_soon(self, session_id: str, commands: list[dict[str, Any]]) -> None:
        update = AvailableCommandsUpdate(
            sessionUpdate="available_commands_update",
            availableCommands=[AvailableCommand.model_validate(c) for c in commands],
        )
        task = asyncio.create_task(self._conn.sessionUpdate(SessionNotification(sessionId=session_id, update=update)))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def newSession(self, params: Any) -> NewSessionResponse:
        self.count += 1
        session_id = f"old-{self.count}"
        self._send_soon(session_id, OWN)
        await asyncio.sleep(0)  # the task sends now, before the response
        response = NewSessionResponse(sessionId=session_id)
        if not self.shim:
            return response
        return self.command_advertiser.attach(response, always=ALWAYS)

    async def loadSession(self, params: Any) -> None:
        self._send_soon(params.sessionId, OWN_LOAD)
        await asyncio.sleep(0)
        if self.shim:
            return self.command_advertiser.attach(None, session_id=params.sessionId, always=ALWAYS)
        return None

    async def prompt(self, params: Any) -> PromptResponse:
        return PromptResponse(stopReason="end_turn")

    async def cancel(self, params: Any) -> None:
        return None

    async def extMethod(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if method == "sync":
            await asyncio.gather(*self.tasks)  # every task's send is handed over
            return {"stats": self.command_advertiser.stats(), "version": self.command_advertiser.protocol_version}
        raise ValueError(method)


async def main(shim: bool) -> None:
    reader, writer = await stdio_streams()
    conn = AgentSideConnection(lambda c: OldSdkAgent(c, shim), writer, reader)
    # SDK 0.4-0.6 have no listen(): the connection runs its own receive task; it ends at EOF.
    await conn._conn._recv_task


if __name__ == "__main__":
    asyncio.run(main(shim="--no-shim" not in sys.argv[1:]))
