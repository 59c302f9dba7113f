"""The shim on SDK 0.4.9, 0.5.0 and 0.6.3: a subprocess agent on each release, raw JSON-RPC on stdio.

Those releases route ``initialize``, ``session/new``, ``session/load``, ``session/prompt``...
to camelCase handlers taking request objects, call the agent factory before the
connection exists, and hand each request to a dispatcher task (so a handler does
not inherit the receive loop's context). ``old_sdk_agent.py`` binds late, in
``initialize``; its setup handlers start a task that sends the session's own list
with ``conn.sessionUpdate(...)`` and return ``attach(..., always=ALWAYS)``.

Each virtualenv is built once (tests/support/sdk_venv.py).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any, Self

import pytest

pytestmark = pytest.mark.slow  # agents on virtualenvs of older SDK releases

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))

from sdk_venv import sdk_env, sdk_python

from acp_migrate.runtime import commands_to_wire

HERE = Path(__file__).resolve().parent
AGENT = HERE / "old_sdk_agent.py"
RELEASES = ["0.4.9", "0.5.0", "0.6.3"]
TIMEOUT = 120.0  # seconds; a safety net

OWN = [
    {"name": "web", "description": "Search the web", "input": {"hint": "query"}},
    {"name": "test", "description": "Run the tests"},
]
OWN_LOAD = [{"name": "resume-work", "description": "Pick up where the session stopped"}]
ALWAYS = [
    {"name": "skill", "description": "A skill the server advertised in initialize"},
    {"name": "test", "description": "Also in the own list: the own one wins"},
]


class RawAgent:
    """An agent subprocess driven with raw JSON-RPC lines; every frame it writes, in order."""

    def __init__(self, python: Path, *args: str) -> None:
        self.command = [str(python), str(AGENT), *args]
        self.frames: list[dict[str, Any]] = []
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._next = 0

    async def __aenter__(self) -> Self:
        self.process = await asyncio.create_subprocess_exec(
            *self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=sdk_env(),
        )
        self._reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), TIMEOUT)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        await self._reader

    async def _read(self) -> None:
        assert self.process.stdout is not None
        while line := await self.process.stdout.readline():
            message = json.loads(line)
            self.frames.append(message)
            future = self._pending.pop(message.get("id"), None) if "method" not in message else None
            if future is not None and not future.done():
                future.set_result(message)
        for future in self._pending.values():
            if not future.done():
                assert self.process.stderr is not None
                stderr = (await self.process.stderr.read()).decode(errors="replace")
                future.set_exception(RuntimeError(f"agent exited; stderr:\n{stderr}"))

    async def request(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Send a request; return (its id, its response)."""
        request_id = self._next
        self._next += 1
        future = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        line = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        await self.process.stdin.drain()
        response = await asyncio.wait_for(future, TIMEOUT)
        assert "error" not in response, response
        return request_id, response

    def index_of_response(self, request_id: int) -> int:
        return next(i for i, f in enumerate(self.frames) if f.get("id") == request_id and "method" not in f)

    def updates(self, session_id: str) -> list[tuple[int, Any]]:
        found = []
        for index, frame in enumerate(self.frames):
            params = frame.get("params") or {}
            update = params.get("update") or {}
            if (
                frame.get("method") == "session/update"
                and params.get("sessionId") == session_id
                and update.get("sessionUpdate") == "available_commands_update"
            ):
                found.append((index, update.get("availableCommands", "MISSING")))
        return found


def merged(own: list[dict[str, Any]], version: int) -> list[dict[str, Any]]:
    names = {c["name"] for c in own}
    return commands_to_wire(own + [c for c in ALWAYS if c["name"] not in names], version)


async def run_sessions(agent: RawAgent, version: int) -> dict[str, Any]:
    _, init = await agent.request("initialize", {"protocolVersion": version, "clientCapabilities": {}})
    assert init["result"]["protocolVersion"] == version
    setups = []
    for _ in range(3):
        rid, response = await agent.request("session/new", {"cwd": "/", "mcpServers": []})
        setups.append(("new", response["result"]["sessionId"], rid))
    for sid in ("old-1", "stored-elsewhere"):  # an open session, and one this process never saw
        rid, _ = await agent.request("session/load", {"cwd": "/", "mcpServers": [], "sessionId": sid})
        setups.append(("load", sid, rid))
    _, sync = await agent.request("_sync", {})
    return {"setups": setups, "sync": sync["result"]}


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("release", RELEASES)
def test_late_bind_intercepts_and_merges_on_old_sdks(release: str, version: int) -> None:
    python = sdk_python(release)

    async def scenario() -> tuple[RawAgent, dict[str, Any]]:
        async with RawAgent(python) as agent:
            out = await run_sessions(agent, version)
        return agent, out

    agent, out = asyncio.run(scenario())
    assert out["sync"]["version"] == version  # learned from the initialize result, bound in its handler
    # Each session's frames in wire order: its setup responses and its commands updates.
    responses = {agent.index_of_response(rid): (kind, sid) for kind, sid, rid in out["setups"]}
    updates = {index: (sid, commands) for sid in {s for _, s, _ in out["setups"]} for index, commands in agent.updates(sid)}
    seen: dict[str, list[Any]] = {}
    for index, frame in enumerate(agent.frames):
        if index in responses:
            kind, sid = responses[index]
            result = frame["result"] or {}
            assert "available_commands" not in result
            seen.setdefault(sid, []).append((kind, result.get("availableCommands")))
        elif index in updates:
            sid, commands = updates[index]
            seen.setdefault(sid, []).append(("update", commands))
    new_field = merged(OWN, 2) if version == 2 else None  # v2: intercepted before attach, in the result
    new = [("new", new_field)] + ([("update", merged(OWN, 1))] if version == 1 else [])
    load = [("load", None), ("update", merged(OWN_LOAD, version))]
    assert seen == {"old-1": new + load, "old-2": new, "old-3": new, "stored-elsewhere": load}, release
    stats = out["sync"]["stats"]
    assert stats["sessions"] == 4 and stats["pending_requests"] == 0
    assert stats["held_unknown"] == 0


@pytest.mark.parametrize("release", RELEASES)
def test_without_the_shim_old_sdks_send_before_the_response(release: str) -> None:
    """Negative control: the same handlers, no advertiser, show the race on that release."""
    python = sdk_python(release)

    async def scenario() -> tuple[RawAgent, dict[str, Any]]:
        async with RawAgent(python, "--no-shim") as agent:
            out = await run_sessions(agent, 1)
        return agent, out

    agent, out = asyncio.run(scenario())
    early = [sid for kind, sid, rid in out["setups"] if agent.updates(sid)[0][0] < agent.index_of_response(rid)]
    assert early, f"{release}: expected the own list before the setup response"
