"""Test harness: the real SDK on both ends, over three transports.

All async work runs on one background event loop (``aio``), so a stdio
subprocess can be started once per protocol version and shared by every test.
Raw frames are captured with a client-side stream observer because the SDK's
client models hide fields they do not know (v2 input ``type``, custom inputs).
"""

from __future__ import annotations

import asyncio
import socket
import sys
import tempfile
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from acp import run_agent
from acp._transport import memory_transport_pair
from acp.client.connection import ClientSideConnection
from acp.stdio import spawn_agent_process
from shim_test_agent import ShimTestAgent

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]

TRANSPORTS = ["memory", "socket", "subprocess"]
TIMEOUT = 120.0  # seconds; a safety net that only ends a wait that would never end


class LoopThread:
    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="test-loop", daemon=True)
        self.thread.start()

    def run(self, coro: Awaitable[Any], timeout: float = TIMEOUT) -> Any:
        return asyncio.run_coroutine_threadsafe(_with_timeout(coro, timeout), self.loop).result(timeout + 5)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(TIMEOUT)


async def _with_timeout(coro: Awaitable[Any], timeout: float) -> Any:
    return await asyncio.wait_for(coro, timeout)


class RecordingClient:
    """Minimal client; the SDK-parsed updates are not what the tests check."""

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        return None


class Harness:
    """A connected client plus every raw frame in wire order."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.frames: list[dict[str, Any]] = []  # incoming to the client
        self.agent_sent: list[dict[str, Any]] = []  # outgoing from an in-process agent
        self.requests: list[dict[str, Any]] = []  # outgoing requests from the client
        self.conn: ClientSideConnection = None  # type: ignore[assignment]
        self.agent: ShimTestAgent | None = None  # None when out of process
        self._close: Callable[[], Awaitable[None]] | None = None
        self.version = 1
        self.transport: Any = None  # FlakyTransport when asked for

    def observe(self, event: Any) -> None:
        message = event.message
        if event.direction == "incoming":
            self.frames.append(message)
        elif "method" in message and "id" in message:
            self.requests.append(message)

    def observe_agent(self, event: Any) -> None:
        if event.direction == "outgoing":
            self.agent_sent.append(event.message)

    async def initialize(self, version: int) -> None:
        response = await self.conn.initialize(protocol_version=version)
        self.version = response.protocol_version

    async def call(self, method: str, coro: Awaitable[Any]) -> tuple[Any, Any]:
        """Await an SDK request; also return its JSON-RPC id."""
        start = len(self.requests)
        result = await coro
        request_id = next(r["id"] for r in self.requests[start:] if r["method"] == method)
        return result, request_id

    async def sync(self) -> dict[str, Any]:
        """Round trip behind everything the agent queued so far; returns its stats."""
        return await self.conn.ext_method("stats", {})

    async def new(self, **meta: Any) -> tuple[str, Any]:
        response, rid = await self.call("session/new", self.conn.new_session(cwd="/", mcp_servers=[], **meta))
        return response.session_id, rid

    async def publish(self, sid: str, commands: Any) -> None:
        await self.conn.ext_method("publish", {"sessionId": sid, "commands": commands})

    def response(self, request_id: Any) -> tuple[int, dict[str, Any]]:
        for index, frame in enumerate(self.frames):
            if frame.get("id") == request_id and "method" not in frame:
                return index, frame
        raise AssertionError(f"no response for request {request_id}")

    def updates(self, sid: str) -> list[tuple[int, Any]]:
        """(frame index, raw availableCommands) of each commands update for ``sid``."""
        found = []
        for index, frame in enumerate(self.frames):
            if frame.get("method") != "session/update":
                continue
            params = frame.get("params") or {}
            update = params.get("update") or {}
            if params.get("sessionId") == sid and update.get("sessionUpdate") == "available_commands_update":
                found.append((index, update["availableCommands"] if "availableCommands" in update else "MISSING"))
        return found

    def lists(self, sid: str) -> list[Any]:
        return [commands for _, commands in self.updates(sid)]

    async def close(self) -> None:
        if self._close is not None:
            await self._close()


class FlakyTransport:
    """Wraps a transport; ``fail_updates`` makes that many ``session/update`` sends raise."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.fail_updates = 0

    async def send(self, message: dict[str, Any]) -> None:
        if self.fail_updates and message.get("method") == "session/update":
            self.fail_updates -= 1
            raise ConnectionError("transport refused the update (test)")
        await self.inner.send(message)

    async def receive(self) -> dict[str, Any] | None:
        return await self.inner.receive()

    async def close(self) -> None:
        await self.inner.close()


async def open_memory(
    version: int, *, initialize: bool = True, flaky: bool = False, agent: Any = None, **agent_kwargs: Any
) -> Harness:
    h = Harness("memory")
    agent_end, client_end = memory_transport_pair()
    if flaky:
        agent_end = h.transport = FlakyTransport(agent_end)
    h.agent = agent if agent is not None else ShimTestAgent(**agent_kwargs)
    task = asyncio.create_task(run_agent(h.agent, agent_end, use_unstable_protocol=True, observers=[h.observe_agent]))
    h.conn = ClientSideConnection(RecordingClient(), client_end, observers=[h.observe], use_unstable_protocol=True)

    async def close() -> None:
        await h.conn.close()  # EOF for the agent, whose run_agent then returns
        await asyncio.wait_for(task, TIMEOUT)

    h._close = close
    if initialize:
        await h.initialize(version)
    return h


async def open_socket(version: int, **agent_kwargs: Any) -> Harness:
    # NDJSON over a socket pair: the byte-stream path run_agent uses for stdio.
    h = Harness("socket")
    agent_sock, client_sock = socket.socketpair()
    agent_reader, agent_writer = await asyncio.open_connection(sock=agent_sock)
    client_reader, client_writer = await asyncio.open_connection(sock=client_sock)
    h.agent = ShimTestAgent(**agent_kwargs)
    task = asyncio.create_task(
        run_agent(h.agent, agent_writer, agent_reader, use_unstable_protocol=True, observers=[h.observe_agent])
    )
    h.conn = ClientSideConnection(
        RecordingClient(), client_writer, client_reader, observers=[h.observe], use_unstable_protocol=True
    )

    async def close() -> None:
        await h.conn.close()
        client_writer.close()
        await asyncio.wait_for(task, TIMEOUT)
        agent_writer.close()

    h._close = close
    await h.initialize(version)
    return h


async def open_subprocess(
    version: int, script: Path = HERE / "shim_test_agent.py", args: tuple[str, ...] = ()
) -> Harness:
    h = Harness("subprocess")
    stderr = tempfile.TemporaryFile()
    cm = spawn_agent_process(
        lambda _agent: RecordingClient(),
        sys.executable,
        str(script),
        *args,
        env={"PYTHONPATH": str(REPO)},
        transport_kwargs={"stderr": stderr, "shutdown_timeout": TIMEOUT},
        observers=[h.observe],
        use_unstable_protocol=True,
    )
    h.conn, h.process = await cm.__aenter__()

    async def close() -> None:
        await cm.__aexit__(None, None, None)
        stderr.close()

    h._close = close
    await h.initialize(version)
    return h
