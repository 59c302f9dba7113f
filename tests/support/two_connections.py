"""Serve two connections, one after the other, in one process with one agent factory,
as a server accepting connections does on SDK 0.4-0.6 (`AgentSideConnection(factory,
writer, reader)` per connection), and report the commands each connection's new
session got.

    python tests/support/two_connections.py SPEC_JSON

Runs on that release's interpreter (``support.sdk_venv``). ``SPEC_JSON`` holds ``root``
(put first on ``sys.path``), ``module``, ``factory`` (an expression in the module's
namespace, evaluated once: `traced(lambda conn: ExampleAgent(conn))`) and ``timeout``
(a hang guard only). Each connection is a socket pair: the release's own client
initializes, opens a session and waits for its `available_commands_update`; then
both ends close. It prints ``{"lists": [names or None, names or None]}``.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import socket
import sys
from typing import Any

from acp import PROTOCOL_VERSION, AgentSideConnection, ClientSideConnection  # this release's SDK
from acp.schema import InitializeRequest, NewSessionRequest


class _Client:
    """Keeps each session's last command list."""

    def __init__(self) -> None:
        self.lists: dict[str, list[str]] = {}
        self.changed = asyncio.Event()

    async def sessionUpdate(self, params: Any) -> None:
        update = params.update
        if getattr(update, "sessionUpdate", None) == "available_commands_update":
            self.lists[params.sessionId] = [command.name for command in update.availableCommands]
            self.changed.set()


async def _serve_one(factory: Any, timeout: float) -> list[str] | None:
    agent_end, client_end = socket.socketpair()
    agent_reader, agent_writer = await asyncio.open_connection(sock=agent_end)
    client_reader, client_writer = await asyncio.open_connection(sock=client_end)
    served = AgentSideConnection(factory, agent_writer, agent_reader)
    client = _Client()
    connection = ClientSideConnection(lambda agent: client, client_writer, client_reader)
    try:
        async with asyncio.timeout(timeout):  # a hang guard only
            await connection.initialize(InitializeRequest(protocolVersion=PROTOCOL_VERSION))
            session = await connection.newSession(NewSessionRequest(cwd="/", mcpServers=[]))
            while session.sessionId not in client.lists:
                client.changed.clear()
                await client.changed.wait()
        return client.lists[session.sessionId]
    except TimeoutError:
        return None
    finally:
        for side in (connection, served):
            await side._conn.close()
        for writer in (client_writer, agent_writer):
            writer.close()


async def _serve(spec: dict[str, Any]) -> list[list[str] | None]:
    module = importlib.import_module(spec["module"])
    factory = eval(spec["factory"], vars(module))  # once: the factory every connection gets
    return [await _serve_one(factory, spec["timeout"]) for _ in range(2)]


def main(argv: list[str]) -> None:
    spec = json.loads(argv[0])
    sys.path.insert(0, spec["root"])
    json.dump({"lists": asyncio.run(_serve(spec))}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1:])
