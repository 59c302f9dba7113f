"""Wire order: a session's setup response goes out before any commands update.

Each check runs 20 times per setup method per transport, with handlers that
await before returning. The negative controls run the naive patterns through
the same harness and show it does see the bug.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from runtime_harness import TRANSPORTS, Harness

from acp_migrate.runtime import commands_to_wire

REPS = 20
KINDS = ["new", "load", "resume", "fork"]

EARLY = [{"name": "early", "description": "published before attach"}]
ATTACHED = [{"name": "web", "description": "Search", "input": {"type": "text", "hint": "query"}}]
LATE = [
    {"name": "web", "description": "Search", "input": {"type": "text", "hint": "query"}},
    {"name": "late", "description": "published after attach, before the response"},
]


async def do_setup(h: Harness, kind: str, **meta: Any) -> tuple[str, Any]:
    """Run one setup request of ``kind``; return (session id, request id)."""
    conn = h.conn
    if kind == "new":
        return await h.new(**meta)
    if kind == "fork":
        source, _ = await h.new(**{k: v for k, v in meta.items() if k == "mode"})
        response, rid = await h.call("session/fork", conn.fork_session(cwd="/", session_id=source, **meta))
        return response.session_id, rid
    sid = f"{kind}-{uuid.uuid4().hex[:8]}"
    if kind == "load":
        _, rid = await h.call("session/load", conn.load_session(cwd="/", session_id=sid, mcp_servers=[], **meta))
    else:
        _, rid = await h.call("session/resume", conn.resume_session(cwd="/", session_id=sid, **meta))
    return sid, rid


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("transport", TRANSPORTS)
def test_response_precedes_commands(aio: Any, harness: Any, transport: str, version: int) -> None:
    h = harness(transport, version)
    assert h.version == version

    async def scenario() -> list[tuple[str, str, Any]]:
        runs = []
        for kind in KINDS:
            for _ in range(REPS):
                sid, rid = await do_setup(h, kind, early=EARLY, commands=ATTACHED, late=LATE)
                runs.append((kind, sid, rid))
        await h.sync()
        return runs

    runs = aio.run(scenario())
    assert len(runs) == REPS * len(KINDS)
    for kind, sid, rid in runs:
        index, response = h.response(rid)
        updates = h.updates(sid)
        # Held lists were coalesced: exactly one update, the latest list.
        assert [commands for _, commands in updates] == [commands_to_wire(LATE, version)], (kind, sid)
        assert updates[0][0] > index, f"{transport}: update for {sid} ({kind}) before its response"
        field_expected = version >= 2 and kind != "load"
        if field_expected:
            assert response["result"]["availableCommands"] == commands_to_wire(ATTACHED, version)
        else:
            assert "availableCommands" not in response["result"]


@pytest.mark.parametrize("mode", ["naive_await", "naive_task"])
@pytest.mark.parametrize("transport", TRANSPORTS)
def test_naive_patterns_misorder(aio: Any, harness: Any, transport: str, mode: str) -> None:
    """Negative control: without a bound advertiser, sending from inside the handler beats the response."""
    h = harness(transport, 1, bind="none")

    async def scenario() -> list[tuple[str, str, Any]]:
        runs = []
        for kind in KINDS:
            for _ in range(REPS):
                sid, rid = await do_setup(h, kind, mode=mode)
                runs.append((kind, sid, rid))
        await h.sync()
        return runs

    for kind, sid, rid in aio.run(scenario()):
        index, _ = h.response(rid)
        updates = h.updates(sid)
        assert len(updates) == 1, (kind, sid)
        assert updates[0][0] < index, f"{transport}/{mode}: expected the bug for {kind}"


@pytest.mark.parametrize("mode", ["naive_await", "naive_task"])
@pytest.mark.parametrize("transport", TRANSPORTS)
def test_naive_patterns_are_reordered_once_bound(aio: Any, harness: Any, transport: str, mode: str) -> None:
    """The same handlers on a connection with a bound advertiser: their sends are held and merged."""
    h = harness(transport, 1)

    async def scenario() -> list[tuple[str, str, Any]]:
        runs = []
        for kind in KINDS:
            for _ in range(REPS // 4):
                sid, rid = await do_setup(h, kind, mode=mode, commands=LATE, always=EARLY)
                runs.append((kind, sid, rid))
        await h.sync()
        return runs

    for kind, sid, rid in aio.run(scenario()):
        index, _ = h.response(rid)
        updates = h.updates(sid)
        assert [commands for _, commands in updates] == [commands_to_wire(LATE + EARLY, 1)], (kind, sid)
        assert updates[0][0] > index, f"{transport}/{mode}: update for {sid} ({kind}) before its response"
