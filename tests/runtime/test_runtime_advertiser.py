"""CommandAdvertiser behaviour over real SDK connections."""

from __future__ import annotations

import asyncio
import gc
import tracemalloc
from typing import Any

import pytest
from acp import RequestError
from runtime_harness import TRANSPORTS, Harness

from acp_migrate.runtime import commands_to_wire

A = [{"name": "a", "description": "first"}]
B = [{"name": "b", "description": "second", "input": {"hint": "b's argument"}}]
AB = A + B
C = [{"name": "c", "description": "third"}]
MIXED = [
    {"name": "web", "description": "Search", "input": {"type": "text", "hint": "query", "_meta": {"k": 1}}},
    {"name": "pick", "description": "Choose", "input": {"type": "_choice", "options": ["x", "y"], "_meta": {"z": 2}}},
    {"name": "plain", "description": "No input", "_meta": {"source": "skill"}},
]


def wire(commands: Any, version: int = 1) -> list[dict[str, Any]]:
    return commands_to_wire(commands, version)


def find_nulls(value: Any, path: str = "") -> list[str]:
    if isinstance(value, dict):
        found = [path] if "availableCommands" in value and value["availableCommands"] is None else []
        for key, item in value.items():
            found += find_nulls(item, f"{path}.{key}")
        return found
    if isinstance(value, list):
        return [hit for i, item in enumerate(value) for hit in find_nulls(item, f"{path}[{i}]")]
    return []


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_dedup_replacement_and_clear(aio: Any, harness: Any, transport: str) -> None:
    h = harness(transport, 1)

    async def scenario() -> str:
        sid, _ = await h.new(commands=A)
        # Same list as the follow-up: nothing new. Then A B B [] [] C C.
        seq = [A, A, AB, AB, [], [], C, C]
        await h.conn.ext_method("publish_seq", {"sessionId": sid, "lists": seq})
        await h.sync()
        return sid

    sid = aio.run(scenario())
    # v1 follow-up A, then one per change; [] is sent as [] (a clear), never omitted.
    assert h.lists(sid) == [wire(A), wire(AB), [], wire(C)]
    assert find_nulls(h.frames) == []


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_v2_setup_field_counts_as_sent(aio: Any, harness: Any, transport: str) -> None:
    h = harness(transport, 2)

    async def scenario() -> tuple[str, Any, str, Any]:
        sid, rid = await h.new(commands=A)
        await h.publish(sid, A)  # what the result already carried: not sent again
        await h.publish(sid, [])
        empty_sid, empty_rid = await h.new(commands=[])
        await h.publish(empty_sid, [])  # the client already has nothing
        await h.sync()
        return sid, rid, empty_sid, empty_rid

    sid, rid, empty_sid, empty_rid = aio.run(scenario())
    assert h.response(rid)[1]["result"]["availableCommands"] == wire(A, 2)
    assert h.lists(sid) == [[]]
    # An empty list is omitted from the setup result, and no update follows.
    assert "availableCommands" not in h.response(empty_rid)[1]["result"]
    assert h.lists(empty_sid) == []
    assert find_nulls(h.frames) == []


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_wire_shapes_per_version(aio: Any, harness: Any, transport: str) -> None:
    v1, v2 = harness(transport, 1), harness(transport, 2)

    async def scenario(h: Harness) -> tuple[str, str]:
        sid, _ = await h.new(commands=A)
        await h.publish(sid, MIXED)
        other, rid = await h.new(commands=MIXED)
        await h.sync()
        return sid, rid

    sid1, _ = aio.run(scenario(v1))
    assert v1.lists(sid1)[-1] == [
        {"name": "web", "description": "Search", "input": {"hint": "query", "_meta": {"k": 1}}},
        {"name": "pick", "description": "Choose"},  # v1 has no typed inputs
        {"name": "plain", "description": "No input", "_meta": {"source": "skill"}},
    ]
    sid2, rid2 = aio.run(scenario(v2))
    # v2: text gets its type, the custom input and every _meta travel verbatim.
    assert v2.lists(sid2)[-1] == MIXED
    assert v2.response(rid2)[1]["result"]["availableCommands"] == MIXED


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_failed_setup_sends_nothing(aio: Any, harness: Any, transport: str) -> None:
    h = harness(transport, 2)
    fail = {"early": A, "commands": AB, "late": C, "fail": True}

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], list[str]]:
        source, _ = await h.new()
        before = await h.sync()
        start = len(h.frames)
        errors = []
        for kind, call in [
            ("new", lambda: h.conn.new_session(cwd="/", mcp_servers=[], **fail)),
            ("load", lambda: h.conn.load_session(cwd="/", session_id="never-loaded", mcp_servers=[], **fail)),
            ("resume", lambda: h.conn.resume_session(cwd="/", session_id="never-resumed", **fail)),
            ("fork", lambda: h.conn.fork_session(cwd="/", session_id=source, **fail)),
        ]:
            with pytest.raises(RequestError):
                await call()
            errors.append(kind)
        after = await h.sync()
        tail = h.frames[start:]
        return before, after, [f.get("method", "") for f in tail]

    before, after, methods = aio.run(scenario())
    assert "session/update" not in methods
    assert after["sessions"] == before["sessions"]  # nothing held for the failed ones
    assert after["held_unknown"] == before["held_unknown"]
    assert after["pending_requests"] == 0


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_closed_and_forgotten_sessions_are_dropped(aio: Any, harness: Any, transport: str) -> None:
    h = harness(transport, 1)

    async def scenario() -> tuple[str, str, str, dict[str, Any], dict[str, Any]]:
        closed, _ = await h.new(commands=A)
        forgotten, _ = await h.new(commands=A)
        kept, _ = await h.new(commands=A)
        before = await h.sync()
        await h.conn.close_session(session_id=closed)
        await h.conn.ext_method("forget", {"sessionId": forgotten})
        with pytest.raises(RequestError):
            await h.conn.close_session(session_id=kept, fail=True)  # failed close keeps it
        for sid in (closed, forgotten, kept):
            await h.publish(sid, C)
        after = await h.sync()
        return closed, forgotten, kept, before, after

    closed, forgotten, kept, before, after = aio.run(scenario())
    assert h.lists(closed) == [wire(A)]
    assert h.lists(forgotten) == [wire(A)]
    assert h.lists(kept) == [wire(A), wire(C)]
    assert after["sessions"] == before["sessions"] - 2
    assert after["held_unknown"] == before["held_unknown"]  # late publishes not held either


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_load_readvertises_an_open_session(aio: Any, harness: Any, transport: str) -> None:
    h = harness(transport, 2)

    async def scenario() -> tuple[str, Any]:
        sid, _ = await h.new(commands=A)
        await h.publish(sid, AB)
        load = h.conn.load_session(cwd="/", session_id=sid, mcp_servers=[], commands=C)
        _, rid = await h.call("session/load", load)
        await h.sync()
        return sid, rid

    sid, rid = aio.run(scenario())
    index, response = h.response(rid)
    assert "availableCommands" not in response["result"]  # load results never carry it
    assert h.lists(sid) == [wire(AB, 2), wire(C, 2)]
    assert h.updates(sid)[-1][0] > index


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_publish_from_plain_thread_during_setup_is_held(aio: Any, harness: Any, transport: str) -> None:
    h = harness(transport, 1)

    async def scenario() -> tuple[str, Any]:
        sid, rid = await h.new(thread=C)  # no attach: the thread's list is all there is
        await h.sync()
        return sid, rid

    sid, rid = aio.run(scenario())
    index, _ = h.response(rid)
    assert h.lists(sid) == [wire(C)]
    assert h.updates(sid)[0][0] > index


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_threads_publishing_concurrently(aio: Any, harness: Any, transport: str) -> None:
    h = harness(transport, 2)
    lists = [A, B, AB, C, [], MIXED]

    async def scenario() -> tuple[str, list[int]]:
        sid, _ = await h.new(commands=A)
        params = {"sessionId": sid, "lists": lists, "threads": 8, "per_thread": 50}
        order = (await h.conn.ext_method("threads", params))["order"]
        await h.sync()
        return sid, order

    sid, order = aio.run(scenario())
    assert len(order) == 400
    sent = h.lists(sid)
    allowed = [wire(x, 2) for x in lists]
    assert sent, "threads published changes; some must be sent"
    assert all(x in allowed for x in sent)
    assert all(a != b for a, b in zip([wire(A, 2)] + sent, sent, strict=False)), "consecutive duplicates"
    # Last call to reach the loop wins (the setup result carried A).
    assert ([wire(A, 2)] + sent)[-1] == allowed[order[-1]]


def test_v1_followup_can_be_turned_off(aio: Any, harness: Any) -> None:
    h = harness("memory", 1, v1_followup=False)

    async def scenario() -> tuple[str, Any]:
        sid, rid = await h.new(commands=B)
        await h.publish(sid, B)
        await h.sync()
        return sid, rid

    sid, rid = aio.run(scenario())
    assert h.response(rid)[1]["result"]["availableCommands"] == wire(B, 1)
    assert h.lists(sid) == []


@pytest.mark.slow  # ten thousand sessions, three thousand under tracemalloc
def test_ten_thousand_sessions_leave_no_state(aio: Any, harness: Any) -> None:
    h = harness("memory", 2)
    adv = h.agent.commands

    async def churn(count: int, batch: int = 100) -> int:
        updates = 0
        for _ in range(0, count, batch):
            sids = [sid for sid, _ in await asyncio.gather(*(h.new(commands=A) for _ in range(batch)))]
            await h.conn.ext_method("publish_each", {"sessionIds": sids, "commands": AB})
            await asyncio.gather(*(h.conn.close_session(session_id=sid) for sid in sids))
            # Late publishes after close are ignored.
            await h.conn.ext_method("publish_each", {"sessionIds": sids, "commands": C})
            await h.sync()
            updates += sum(len(h.lists(sid)) for sid in sids)
            h.frames.clear()  # the harness's own logs must not count as growth
            h.requests.clear()
            h.agent_sent.clear()
        return updates

    def traced() -> tracemalloc.Snapshot:
        gc.collect()
        return tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(True, "*acp_migrate/runtime/*")])

    assert aio.run(churn(7_000), timeout=600) == 7_000  # exactly one update each, none after close
    # Then 3,000 more under tracemalloc (slow, so not all 10,000): both points
    # are traced, so tables that resized during the first window are in both.
    tracemalloc.start()
    try:
        assert aio.run(churn(1_000)) == 1_000
        first = traced()
        assert aio.run(churn(2_000)) == 2_000
        diff = traced().compare_to(first, "lineno")
        grown = sum(stat.size_diff for stat in diff)
    finally:
        tracemalloc.stop()
    gc.collect()
    live = [o for o in gc.get_objects() if type(o).__module__ == "acp_migrate.runtime.advertiser"]
    assert [o for o in live if type(o).__name__ in ("_Session", "_Request")] == []
    assert adv.stats() == {
        "sessions": 0,
        "pending_requests": 0,
        "held_unknown": 0,
        "queued": 0,
        "closed_remembered": 256,  # fixed-size ring, not one per session
    }
    # Dict tables re-allocating at another size move a few KB either way; any
    # per-session leak (even 8 bytes each) would be 16 KB or more.
    assert grown < 16_384, f"runtime allocations grew by {grown} bytes over 2,000 sessions: {diff[:5]}"


def test_publish_returns_after_its_list_is_handed_off(aio: Any, harness: Any) -> None:
    # Socket transport: its send yields, so a second publish can find a send in flight.
    h = harness("socket", 1)
    adv = h.agent.commands

    def sent_lists(sid: str) -> list[Any]:
        return [
            m["params"]["update"]["availableCommands"]
            for m in h.agent_sent
            if m.get("method") == "session/update" and m["params"]["sessionId"] == sid
        ]

    async def scenario() -> tuple[list[Any], list[Any]]:
        sid, _ = await h.new(commands=A)
        await h.sync()
        first = asyncio.create_task(adv.publish(sid, B))
        await asyncio.sleep(0)
        assert not first.done(), "the first publish should be inside the transport's send"
        await adv.publish(sid, C)
        at_return = sent_lists(sid)
        await first
        await h.sync()
        return at_return, h.lists(sid)

    at_return, received = aio.run(scenario())
    assert at_return == [wire(A), wire(B), wire(C)]
    assert received == [wire(A), wire(B), wire(C)]
