"""Drive a golden case's agent with the client of an SDK release before 0.12.

    python tests/support/old_sdk_client.py SPEC_JSON

Runs on that release's interpreter (``support.sdk_venv``), so the client is the
release's own ``ClientSideConnection`` (camelCase methods taking request models; no
resume or fork), spawning the agent on the same interpreter with
``support/serve_golden.py``. ``SPEC_JSON`` holds ``launcher``, ``folder`` (the
sessions' cwd), ``root`` (the launcher's FOLDER), ``module``, ``make``, ``setups``
(``new``/``load`` in order, each ``[kind, expected names]``), ``stored`` (the id
loaded), ``not_at_initialize`` (names its result must not hold) and ``timeout`` (a
hang guard only).

Like the 0.12 driver in tests/test_golden_runs.py it initializes, sets up each session
and waits until the client holds the expected list, then ends the agent's input and
reads all it wrote. The agent's stderr is this process's. It prints one JSON object:
``frames``, ``setups`` (``[kind, request_at, session_id]``), ``initialize`` (the raw
result), ``returncode`` and ``failure`` (None, or what went wrong).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for support.golden_frames

from acp import PROTOCOL_VERSION, spawn_agent_process  # this release's SDK
from acp.connection import StreamDirection, StreamEvent
from acp.schema import (
    ClientCapabilities,
    DeniedOutcome,
    FileSystemCapability,
    InitializeRequest,
    LoadSessionRequest,
    NewSessionRequest,
    RequestPermissionResponse,
)

from support.golden_frames import FROM_AGENT, TO_AGENT, Frame, client_list, response_at

METHODS = {"new": "session/new", "load": "session/load"}


class _Client:
    """A client of this release: accepts updates, declines permission requests."""

    async def sessionUpdate(self, params: Any) -> None:
        return None

    async def requestPermission(self, params: Any) -> RequestPermissionResponse:
        return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))


async def _drive(spec: dict[str, Any], frames: list[Frame], setups: list[list[Any]]) -> int | None:
    changed = asyncio.Event()
    timeout = spec["timeout"]

    def observe(event: StreamEvent) -> None:
        frames.append((TO_AGENT if event.direction is StreamDirection.OUTGOING else FROM_AGENT, event.message))
        changed.set()

    async def until(predicate: Any) -> None:
        while not predicate():
            changed.clear()
            await changed.wait()

    folder = spec["folder"]
    async with spawn_agent_process(
        lambda agent: _Client(),
        sys.executable,
        spec["launcher"],
        spec["root"],
        spec["module"],
        spec["make"],
        cwd=folder,
        env={"PYTHONPATH": os.environ.get("PYTHONPATH", ""), "PYTHONDONTWRITEBYTECODE": "1"},
        observers=[observe],
        # The agent's stderr is this process's; after its input ends it exits by itself.
        transport_kwargs={"stderr": None, "shutdown_timeout": timeout},
    ) as (conn, process):

        async def answered(awaitable: Any, what: str) -> Any:
            """Its result; fails at once when the agent exits first (a crash at start), else
            after the hang guard."""
            waiting, exited = asyncio.ensure_future(awaitable), asyncio.ensure_future(process.wait())
            done, _ = await asyncio.wait({waiting, exited}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            if waiting in done:
                exited.cancel()
                return waiting.result()
            waiting.cancel()
            if exited in done:
                raise AssertionError(f"{what}: the agent exited first, with status {process.returncode}")
            exited.cancel()
            raise AssertionError(f"{what}: nothing within the hang guard ({timeout} s)")

        # A client that reads files (an agent may advertise by the client's capabilities).
        capabilities = ClientCapabilities(fs=FileSystemCapability(readTextFile=True, writeTextFile=False))
        initialize = InitializeRequest(protocolVersion=PROTOCOL_VERSION, clientCapabilities=capabilities)
        await answered(conn.initialize(initialize), "initialize")
        sent = next(i for i, (d, m) in enumerate(frames) if d == TO_AGENT and m.get("method") == "initialize")
        answer = json.dumps(frames[response_at(frames, sent)][1].get("result"))
        if any(name in answer for name in spec["not_at_initialize"]):
            raise AssertionError(f"initialize still advertises: {answer}")
        for kind, expected in spec["setups"]:
            if kind == "new":
                response = await answered(conn.newSession(NewSessionRequest(cwd=folder, mcpServers=[])), kind)
                session_id = response.sessionId
            elif kind == "load":
                request = LoadSessionRequest(cwd=folder, mcpServers=[], sessionId=spec["stored"])
                await answered(conn.loadSession(request), kind)
                session_id = spec["stored"]
            else:
                raise SystemExit(f"no {kind!r} setup before SDK 0.12")
            request_at = max(i for i, (d, m) in enumerate(frames) if d == TO_AGENT and m.get("method") == METHODS[kind])
            setups.append([kind, request_at, session_id])

            def arrived(request_at: int = request_at, session_id: str = session_id, expected: Any = expected) -> bool:
                return client_list(frames, request_at, session_id) == expected

            try:
                await answered(until(arrived), f"{kind} session {session_id}'s list")
            except AssertionError as exc:
                seen = client_list(frames, request_at, session_id)
                raise AssertionError(f"{exc}; the client has {seen}, not {expected}") from None
        process.stdin.write_eof()  # end of input: the agent must stop by itself
        await asyncio.wait_for(conn._conn._recv_task, timeout)
        return await asyncio.wait_for(process.wait(), timeout)


def main(argv: list[str]) -> None:
    spec = json.loads(argv[0])
    frames: list[Frame] = []
    setups: list[list[Any]] = []
    failure, returncode = None, None
    try:
        returncode = asyncio.run(_drive(spec, frames, setups))
    except Exception as exc:  # noqa: BLE001  reported to the test, with the frames so far
        failure = f"{type(exc).__name__}: {exc}"
    initialize = next((i for i, (d, m) in enumerate(frames) if d == TO_AGENT and m.get("method") == "initialize"), None)
    answered = response_at(frames, initialize) if initialize is not None else None
    result = frames[answered][1].get("result") if answered is not None else None
    json.dump(
        {"frames": frames, "setups": setups, "initialize": result, "returncode": returncode, "failure": failure},
        sys.stdout,
    )


if __name__ == "__main__":
    main(sys.argv[1:])
