"""Shim defects found by adversarial testing; each test failed on the code before its fix."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from acp import RequestError
from acp.schema import NewSessionResponse
from pydantic import Field
from runtime_harness import open_memory

from acp_migrate.runtime import CommandAdvertiser, commands_to_wire

A = [{"name": "a", "description": "first"}]
B = [{"name": "b", "description": "second", "input": {"hint": "b's argument"}}]
C = [{"name": "c", "description": "third", "input": {"type": "text", "hint": "c's argument"}}]


def wire(commands: Any, version: int = 1) -> list[dict[str, Any]]:
    return commands_to_wire(commands, version)


@pytest.mark.parametrize("kind", ["load", "resume"])
@pytest.mark.parametrize("version", [1, 2])
def test_failed_reload_keeps_an_open_session(aio: Any, harness: Any, kind: str, version: int) -> None:
    """4a: a failed session/load or session/resume of an open session used to drop it."""
    h = harness("memory", version)

    async def scenario() -> tuple[str, dict[str, Any]]:
        sid, _ = await h.new(commands=A)
        with pytest.raises(RequestError):
            if kind == "load":
                await h.conn.load_session(cwd="/", session_id=sid, mcp_servers=[], commands=B, fail=True)
            else:
                await h.conn.resume_session(cwd="/", session_id=sid, commands=B, fail=True)
        await h.publish(sid, C)
        return sid, await h.sync()

    sid, stats = aio.run(scenario())
    assert stats["sessions"] == 1
    # What the failed handler attached (B) is the session's list until C replaces it.
    lists = h.lists(sid)
    assert lists[-1] == wire(C, version)
    assert lists[0] == (wire(A, version) if version == 1 else wire(B, version))


@pytest.mark.slow  # thousands of setups
def test_more_setups_in_flight_than_any_bound(aio: Any, harness: Any) -> None:
    """4b: past 4,096 setups in flight the oldest requests were dropped with their sessions."""
    h = harness("memory", 1)
    count = 4200
    h.agent.gate_target = count

    async def scenario() -> list[str]:
        setups = [
            asyncio.ensure_future(h.conn.new_session(cwd="/", mcp_servers=[], commands=A, gate=True))
            for _ in range(count)
        ]
        await h.agent.all_gated.wait()  # every handler is in flight
        h.agent.gate.set()
        sids = [response.session_id for response in await asyncio.gather(*setups)]
        await h.conn.ext_method("publish_each", {"sessionIds": sids, "commands": C})
        await h.sync()
        return sids

    sids = aio.run(scenario(), timeout=600)
    per_session: dict[str, list[Any]] = {}
    for frame in h.frames:  # one pass: h.lists() per session would be quadratic
        params = frame.get("params") or {}
        if frame.get("method") == "session/update":
            per_session.setdefault(params["sessionId"], []).append(params["update"]["availableCommands"])
    lost = [sid for sid in sids if per_session.get(sid) != [wire(A), wire(C)]]
    assert lost == [], f"{len(lost)} sessions lost, e.g. {lost[:3]}"
    assert h.agent.commands.stats()["pending_requests"] == 0


def test_held_list_is_rendered_for_the_version_at_send_time(aio: Any) -> None:
    """4c: a list published before initialize kept its v1 wire shape on a v2 connection."""

    async def scenario() -> Any:
        h = await open_memory(2, initialize=False)
        try:
            adv = h.agent.commands
            await h.agent.connected.wait()
            await adv.publish("held", C)
            await h.initialize(2)
            # No attach: the list held since before initialize is all there is.
            await h.call("session/load", h.conn.load_session(cwd="/", session_id="held", mcp_servers=[], attach=False))
            await h.sync()
        finally:
            await h.close()
        return h

    h = aio.run(scenario())
    assert h.lists("held") == [wire(C, 2)]


def test_attach_and_publish_before_bind_warn_and_store_nothing(aio: Any, caplog: Any) -> None:
    """4d: attach/publish before bind stored lists no one would ever send, silently.
    Now: one warning; the response is returned as it is (handlers called directly in
    a project's unit tests still answer), nothing is kept."""
    adv = CommandAdvertiser()
    response = NewSessionResponse(session_id="s")
    with caplog.at_level(logging.WARNING, logger="acp_migrate.runtime.advertiser"):
        assert adv.attach(response, commands=A) is response
        aio.run(adv.publish("s", A))
        aio.run(adv.clear("s"))
        assert adv.publish_threadsafe("s", A).result(timeout=60) is None
    warnings = [r for r in caplog.records if "before bind(conn)" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING
    assert adv.stats() == {"sessions": 0, "pending_requests": 0, "held_unknown": 0, "queued": 0, "closed_remembered": 0}


def test_a_mock_client_is_a_test_double_the_advertiser_stands_aside_for(caplog: Any) -> None:
    """A project's own tests build the agent with `client=Mock()` and call initialize:
    binding must not fail (a Mock answers every attribute, the marker of an advertiser
    already bound included), and handlers return their responses unchanged."""
    from unittest.mock import AsyncMock, Mock

    for double in (Mock(), AsyncMock()):
        adv = CommandAdvertiser()
        with caplog.at_level(logging.WARNING, logger="acp_migrate.runtime.advertiser"):
            assert adv.bind(double) is adv
            response = NewSessionResponse(session_id="s")
            assert adv.attach(response, always=A) is response
        assert not [r for r in caplog.records if "before bind" in r.getMessage()]
        assert double.method_calls == []  # nothing was sent through it


def test_failed_send_is_not_recorded_as_sent(aio: Any, caplog: Any) -> None:
    """4e: a send that raised counted as sent, so retrying the same list sent nothing."""

    async def scenario() -> Any:
        h = await open_memory(1, flaky=True)
        try:
            sid, _ = await h.new(commands=A)
            await h.sync()
            h.transport.fail_updates = 1
            await h.publish(sid, C)  # refused by the transport
            await h.publish(sid, C)  # the retry must go out
            await h.sync()
        finally:
            await h.close()
        return h, sid

    with caplog.at_level(logging.DEBUG, logger="acp_migrate.runtime.advertiser"):
        h, sid = aio.run(scenario())
    assert h.lists(sid) == [wire(A), wire(C)]


@pytest.mark.parametrize("version", [1, 2])
def test_null_available_commands_from_the_caller_never_goes_out(aio: Any, harness: Any, version: int) -> None:
    """4f: a dict response carrying availableCommands: null went out as null."""
    h = harness("memory", version)

    async def scenario() -> list[dict[str, Any]]:
        results = []
        for commands in ([], A):
            _, rid = await h.new(commands=commands, null_field=True)
            results.append(h.response(rid)[1]["result"])
        _, rid = await h.call(
            "session/load",
            h.conn.load_session(cwd="/", session_id="x", mcp_servers=[], commands=[], null_field=True),
        )
        results.append(h.response(rid)[1]["result"])
        return results

    empty, full, load = aio.run(scenario())
    assert "availableCommands" not in empty
    assert "availableCommands" not in load
    if version == 2:
        assert full["availableCommands"] == wire(A, 2)
    else:
        assert "availableCommands" not in full


class _ModelWithField(NewSessionResponse):
    """A response model that already has the field (a newer SDK, or a fork)."""

    available_commands: list[Any] | None = Field(default=None, alias="availableCommands")


@pytest.mark.parametrize("by_alias", [True, False])
def test_null_field_of_a_model_is_dropped(aio: Any, harness: Any, by_alias: bool) -> None:
    """4f, models: one whose available_commands is None came back unchanged (null when dumped)."""
    h = harness("memory", 2)
    adv = h.agent.commands
    response = _ModelWithField(session_id="m", available_commands=None)

    async def attach(commands: Any) -> dict[str, Any]:
        out = adv.attach(response, "m", commands)
        assert isinstance(out, NewSessionResponse)
        return out.model_dump(mode="json", by_alias=by_alias)

    empty = aio.run(attach([]))
    assert "availableCommands" not in empty and "available_commands" not in empty
    full = aio.run(attach(A))
    assert full["availableCommands"] == wire(A, 2)  # never the snake-case name on the wire
    assert "available_commands" not in full


def test_publish_threadsafe_on_the_loop_thread_keeps_call_order(aio: Any, harness: Any) -> None:
    """4g: publish_threadsafe from the loop thread landed after a later publish."""
    h = harness("memory", 1)
    adv = h.agent.commands

    async def scenario() -> str:
        sid, _ = await h.new(commands=A)
        await h.sync()
        future = adv.publish_threadsafe(sid, B)
        await adv.publish(sid, C)  # called later: must win
        await asyncio.wrap_future(future)
        await h.sync()
        return sid

    sid = aio.run(scenario())
    assert h.lists(sid)[-1] == wire(C)


def test_bind_refuses_a_client_side_connection(aio: Any, harness: Any) -> None:
    """4h: binding the client's end was accepted; it has the same inner Connection."""
    h = harness("memory", 1)
    with pytest.raises(TypeError, match="AgentSideConnection"):
        CommandAdvertiser().bind(h.conn)


@pytest.mark.parametrize("context", ["handler", "outside"])
def test_a_load_result_never_carries_the_field(context: str) -> None:
    """Issue 23: on v2, `attach` added `availableCommands` to a load result given as a dict
    when it ran outside the handler's context (SDK 0.4-0.6 dispatch handlers there, and so
    do tasks a plain thread starts). The spec lists the new, resume and fork results only.
    In the handler's context (the control) the request said what it was already."""
    import contextvars

    from acp.schema import LoadSessionResponse
    from fake_connection import ForkAgentSideConnection, ForkConnection

    def carries(response: Any) -> bool:
        if isinstance(response, dict):
            return "availableCommands" in response
        return "availableCommands" in response.model_dump(by_alias=True)

    async def scenario() -> dict[str, bool]:
        conn = ForkConnection()
        advertiser = CommandAdvertiser().bind(ForkAgentSideConnection(conn))
        conn.receive({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": 2}})
        await conn.respond(0, {"protocolVersion": 2})
        outside = contextvars.copy_context()  # one the observer never ran in

        def attach(*args: Any) -> Any:
            return outside.run(advertiser.attach, *args) if context == "outside" else advertiser.attach(*args)

        conn.receive({"jsonrpc": "2.0", "id": 1, "method": "session/load", "params": {"sessionId": "old"}})
        found = {
            "load dict": carries(attach({"configOptions": []}, "old", A)),
            "load empty dict": carries(attach({}, "old", A)),
            "load model": carries(attach(LoadSessionResponse(), "old", A)),
        }
        conn.receive({"jsonrpc": "2.0", "id": 2, "method": "session/resume", "params": {"sessionId": "back"}})
        found["resume dict"] = carries(attach({}, "back", A))  # the positive control
        if context == "outside":  # a load read before bind (never seen): a dict naming no session may be one
            found["unseen dict"] = carries(attach({}, "unseen", A))
        return found

    expected = {"load dict": False, "load empty dict": False, "load model": False, "resume dict": True}
    assert asyncio.run(scenario()) == expected | ({"unseen dict": False} if context == "outside" else {})
