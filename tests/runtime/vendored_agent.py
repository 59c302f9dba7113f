"""A migrated agent on stdio that carries the vendored shim, for SDK 0.4.x to 0.12.x.

Run with an SDK's interpreter and ``PYTHONPATH`` holding only the folder where the test
wrote ``acp_command_advertiser.py`` (nothing of acp-migrate). As the migration leaves
an agent: handlers untouched, the advertiser bound once (``on_connect`` on SDK 0.7+,
first thing in ``initialize`` on 0.4-0.6, whose factory runs before the connection
exists) and given the commands moved out of ``initialize``.

Every setup handler first sends its session's own list straight to the connection
(awaited: without the shim it is written before the response). ``cwd="/fail"`` makes
a setup fail after sending; ``cwd="/quiet"`` sends nothing. Extension requests:
``_send`` (``{"sessionId", "commands"}``: the server's own update, from outside a
setup; ``"raw": true`` sends the params as given, ``"failOnce": true`` makes the
transport raise on that send, whose error the request returns) and ``_state`` (the
advertiser's table sizes, and ``commands()``'s names).
``--no-shim`` runs the same handlers without the advertiser (the negative control).
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import acp
from acp.schema import AvailableCommand, AvailableCommandsUpdate
from acp_command_advertiser import CommandAdvertiser

MODERN = hasattr(acp, "run_agent")  # SDK 0.7+: keyword handlers, on_connect
SHIM = "--no-shim" not in sys.argv[1:]
OWN = {
    "new": [
        {"name": "web", "description": "Search the web", "input": {"hint": "query"}},
        {"name": "test", "description": "Run the tests"},
    ],
    "load": [{"name": "resume-work", "description": "Pick up where the session stopped"}],
    "resume": [{"name": "resumed", "description": "Resumed"}],
    "fork": [{"name": "forked", "description": "Forked"}],
}
# Moved out of initialize: SDK models, one named like an own command (the own one wins).
ADVERTISED = [
    AvailableCommand.model_validate({"name": "skill", "description": "A skill"}),
    AvailableCommand.model_validate({"name": "test", "description": "Also an own command"}),
]


class Core:
    def __init__(self) -> None:
        self.conn: Any = None
        self.command_advertiser = CommandAdvertiser()
        self.count = 0

    async def send(self, session_id: str, commands: list[dict[str, Any]]) -> None:
        update = AvailableCommandsUpdate.model_validate(
            {"sessionUpdate": "available_commands_update", "availableCommands": commands}
        )
        if MODERN:
            await self.conn.session_update(session_id=session_id, update=update)
        else:
            notification = acp.schema.SessionNotification.model_validate({"sessionId": session_id, "update": update})
            await self.conn.sessionUpdate(notification)

    async def setup(self, kind: str, cwd: str, session_id: str | None = None) -> str:
        if session_id is None:
            self.count += 1
            session_id = f"s-{self.count}"
        if cwd != "/quiet":
            await self.send(session_id, OWN[kind])
        if cwd == "/fail":
            raise acp.RequestError.invalid_params({"cwd": cwd})
        return session_id

    def state(self) -> dict[str, Any]:
        advertiser = self.command_advertiser
        tables = {name: len(getattr(advertiser, name)) for name in ("_own", "_sent", "_setup", "_pending")}
        return {**tables, "commands": [c.name for c in advertiser.commands()]}

    async def send_raw(self, session_id: str, commands: Any) -> None:
        update = {"sessionUpdate": "available_commands_update", "availableCommands": commands}
        await self.conn._conn.send_notification("session/update", {"sessionId": session_id, "update": update})

    def fail_next_send(self) -> None:
        transport = self.conn._conn._transport
        send = transport.send

        async def failing(message: Any) -> None:
            transport.send = send
            raise ConnectionResetError("the write failed")

        transport.send = failing

    async def ext(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if method == "send":
            if params.get("failOnce"):
                self.fail_next_send()
            sender = self.send_raw if params.get("raw") else self.send
            try:
                await sender(params["sessionId"], params["commands"])
            except ConnectionResetError as error:
                return {"raised": str(error)}
            return {}
        if method == "state":
            return self.state()
        raise acp.RequestError.method_not_found(method)


class ModernAgent(Core):
    def on_connect(self, conn: Any) -> None:
        self.conn = conn
        if SHIM:
            self.command_advertiser.bind(conn)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> Any:
        if SHIM:
            self.command_advertiser.advertise(lambda: ADVERTISED)
        capabilities = acp.schema.AgentCapabilities(load_session=True)
        return acp.InitializeResponse(protocol_version=protocol_version, agent_capabilities=capabilities)

    async def new_session(self, cwd: str, **kwargs: Any) -> Any:
        return acp.NewSessionResponse(session_id=await self.setup("new", cwd))

    async def load_session(self, cwd: str, session_id: str, **kwargs: Any) -> Any:
        await self.setup("load", cwd, session_id)
        return acp.LoadSessionResponse()

    async def resume_session(self, cwd: str, session_id: str, **kwargs: Any) -> Any:
        await self.setup("resume", cwd, session_id)
        return acp.schema.ResumeSessionResponse()

    async def fork_session(self, cwd: str, session_id: str, **kwargs: Any) -> Any:
        return acp.schema.ForkSessionResponse(session_id=await self.setup("fork", cwd))

    async def close_session(self, session_id: str, **kwargs: Any) -> Any:
        return acp.schema.CloseSessionResponse()

    async def prompt(self, prompt: Any, session_id: str, **kwargs: Any) -> Any:
        return acp.PromptResponse(stop_reason="end_turn")

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        return None

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        return await self.ext(method, params)


class OldAgent(Core):
    """SDK 0.4-0.6: request objects, camelCase handlers."""

    def __init__(self, conn: Any) -> None:
        super().__init__()
        self.conn = conn

    async def initialize(self, params: Any) -> Any:
        if SHIM:
            self.command_advertiser.bind(self.conn).advertise(ADVERTISED)
        capabilities = acp.schema.AgentCapabilities(loadSession=True)
        return acp.InitializeResponse(protocolVersion=params.protocolVersion, agentCapabilities=capabilities)

    async def newSession(self, params: Any) -> Any:
        return acp.NewSessionResponse(sessionId=await self.setup("new", params.cwd))

    async def loadSession(self, params: Any) -> None:
        await self.setup("load", params.cwd, params.sessionId)

    async def prompt(self, params: Any) -> Any:
        return acp.PromptResponse(stopReason="end_turn")

    async def cancel(self, params: Any) -> None:
        return None

    async def extMethod(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        return await self.ext(method, params)


async def main() -> None:
    if MODERN:
        await acp.run_agent(ModernAgent(), use_unstable_protocol=True)  # routes resume, fork
        return
    reader, writer = await acp.stdio_streams()
    conn = acp.AgentSideConnection(OldAgent, writer, reader)
    await conn._conn._recv_task  # 0.4-0.6 have no listen(): the receive task ends at EOF


if __name__ == "__main__":
    asyncio.run(main())
