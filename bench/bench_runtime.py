"""Cost of the runtime shim, next to a bare ``conn.session_update`` in the same run.

Run: ``python bench/bench_runtime.py [--n 2000] [--repeat 5]``

Both ends are the real SDK over a socket pair (the byte-stream path stdio uses);
the client end only drains bytes, so client-side parsing does not blur agent
costs. Each figure is the best of ``--repeat`` runs of ``--n`` calls (cases take
turns; GC off while timing, as ``timeit`` does), in µs per call, and its ratio to
the baseline: a bare ``await conn.session_update(...)`` of
a prebuilt three-command ``AvailableCommandsUpdate`` on a connection without
observers. On the shimmed connection the advertiser is bound, so the agent's
``conn.session_update`` of a commands list is intercepted (merged, de-duplicated);
other notifications pass through its wrapper and observer.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from acp import update_agent_message_text
from acp.agent.connection import AgentSideConnection
from acp.connection import StreamDirection, StreamEvent
from acp.schema import (
    AvailableCommand,
    AvailableCommandsUpdate,
    InitializeResponse,
    NewSessionResponse,
    UnstructuredCommandInput,
)

from acp_migrate.runtime import CommandAdvertiser

LIST_A = [
    AvailableCommand(
        name="web",
        description="Search the web for information",
        input=UnstructuredCommandInput(hint="query to search for"),
    ),
    AvailableCommand(name="test", description="Run tests for the current project"),
    AvailableCommand(
        name="plan",
        description="Create a detailed implementation plan",
        input=UnstructuredCommandInput(hint="what to plan"),
    ),
]
LIST_B = LIST_A[:2]


class BenchAgent:
    def __init__(self, advertiser: CommandAdvertiser | None) -> None:
        self.commands = advertiser

    def on_connect(self, conn: Any) -> None:
        if self.commands is not None:
            self.commands.bind(conn)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="bench")


class Peer:
    """Agent connection plus a client end that answers nothing and drains bytes."""

    async def start(self, advertiser: CommandAdvertiser | None) -> Peer:
        agent_sock, client_sock = socket.socketpair()
        reader, writer = await asyncio.open_connection(sock=agent_sock)
        self.client_reader, self.client_writer = await asyncio.open_connection(sock=client_sock)
        self.responses: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.drain_task = asyncio.create_task(self._drain())
        self.conn = AgentSideConnection(BenchAgent(advertiser), writer, reader)
        self.agent_writer = writer
        await self.request(0, "initialize", {"protocolVersion": 1})
        await self.request(1, "session/new", {"cwd": "/", "mcpServers": []})
        await asyncio.sleep(0.01)  # let the v1 follow-up go out
        return self

    async def _drain(self) -> None:
        while line := await self.client_reader.readline():
            message = json.loads(line)
            future = self.responses.pop(message.get("id"), None) if "method" not in message else None
            if future is not None:
                future.set_result(message)

    async def request(self, request_id: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
        future = asyncio.get_running_loop().create_future()
        self.responses[request_id] = future
        line = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        self.client_writer.write((json.dumps(line) + "\n").encode())
        return await future

    async def stop(self) -> None:
        await self.conn.close()
        self.client_writer.close()
        self.agent_writer.close()
        await asyncio.wait_for(self.drain_task, 5)


async def timed(n: int, body: Callable[[int], Awaitable[None]]) -> float:
    gc.disable()  # as timeit does: collector pauses are noise here
    try:
        start = time.perf_counter_ns()
        for i in range(n):
            await body(i)
        return (time.perf_counter_ns() - start) / n / 1000
    finally:
        gc.enable()


async def interleaved(n: int, repeat: int, cases: dict[str, Any]) -> dict[str, float]:
    """Best µs per call of each case; cases take turns so drift hits them alike."""
    best = {name: float("inf") for name in cases}
    for _ in range(repeat):
        for name, (prepare, body) in cases.items():
            if prepare is not None:
                await prepare()
            best[name] = min(best[name], await timed(n, body))
    return best


def sync_per_call_us(n: int, repeat: int, body: Callable[[], Any]) -> float:
    best = float("inf")
    gc.disable()
    try:
        for _ in range(repeat):
            start = time.perf_counter_ns()
            for _ in range(n):
                body()
            best = min(best, (time.perf_counter_ns() - start) / n / 1000)
    finally:
        gc.enable()
    return best


async def main(n: int, repeat: int) -> None:
    bare = await Peer().start(None)
    adv = CommandAdvertiser()  # nothing advertised: the own list is the list
    shimmed = await Peer().start(adv)
    assert list(adv._sent) == ["bench"], adv._sent

    updates = tuple(
        AvailableCommandsUpdate(session_update="available_commands_update", available_commands=x)
        for x in (LIST_A, LIST_B)
    )
    update = updates[0]
    chunk = update_agent_message_text("hello")
    rows: list[tuple[str, float]] = []

    async def bare_update(i: int) -> None:
        await bare.conn.session_update("bench", update)

    async def bare_chunk(i: int) -> None:
        await bare.conn.session_update("bench", chunk)

    async def observed_chunk(i: int) -> None:
        await shimmed.conn.session_update("bench", chunk)

    async def intercepted_change(i: int) -> None:
        await shimmed.conn.session_update("bench", updates[i & 1])

    async def intercepted_same(i: int) -> None:
        await shimmed.conn.session_update("bench", updates[0])

    async def reset_a() -> None:
        await shimmed.conn.session_update("bench", updates[0])

    cases = {
        "bare conn.session_update (baseline, no observer)": (None, bare_update),
        "bare conn.session_update of a message chunk (no observer)": (None, bare_chunk),
        "message chunk, shim bound (wrapper + observer)": (None, observed_chunk),
        "conn.session_update of commands, shim bound, changed": (None, intercepted_change),
        "conn.session_update of commands, shim bound, same": (reset_a, intercepted_same),
    }
    results = await interleaved(n, repeat, cases)
    rows.extend(results.items())
    baseline = results["bare conn.session_update (baseline, no observer)"]
    chunk_bare = results["bare conn.session_update of a message chunk (no observer)"]
    observed = results["message chunk, shim bound (wrapper + observer)"]
    rows.append(("  -> shim overhead per other notification (difference)", observed - chunk_bare))

    # The observer function alone, on the kinds of message it sees.
    notification = {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "bench", "update": {}}}
    prompt = {"jsonrpc": "2.0", "id": 99, "method": "session/prompt", "params": {"sessionId": "bench", "prompt": []}}
    answer = {"jsonrpc": "2.0", "id": 99, "result": {"stopReason": "end_turn"}}
    for label, event in [
        ("observer call: outgoing notification", StreamEvent(StreamDirection.OUTGOING, notification)),
        ("observer call: incoming prompt request", StreamEvent(StreamDirection.INCOMING, prompt)),
        ("observer call: outgoing response (untracked id)", StreamEvent(StreamDirection.OUTGOING, answer)),
    ]:
        rows.append((label, sync_per_call_us(n * 10, repeat, lambda e=event: adv._observe(e))))
    inner = shimmed.conn._conn  # SDK snapshot + dispatch, as paid per message with any observer
    rows.append(
        (
            "SDK observer dispatch incl. deep copy (notification)",
            sync_per_call_us(n * 10, repeat, lambda: inner._notify_observers(StreamDirection.OUTGOING, notification)),
        )
    )

    await bare.stop()
    await shimmed.stop()
    print(f"Python {sys.version.split()[0]}, n={n}, best of {repeat}")
    print(f"{'measurement':62} {'us/call':>9} {'x baseline':>11}")
    for label, value in rows:
        print(f"{label:62} {value:9.2f} {value / baseline:11.3f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    asyncio.run(main(args.n, args.repeat))
