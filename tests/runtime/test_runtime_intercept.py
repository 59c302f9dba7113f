"""The bound advertiser owns the connection's command traffic (SDK 0.12 on both ends).

Code that knows nothing of the advertiser (``command_source.CommandSource``, another
module) sends ``available_commands_update`` straight to the connection; the client
must get each list after the session's setup response, merged with the session's
``always`` commands, de-duplicated, never null.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from acp import update_agent_message_text
from fake_connection import (
    ForkAgentSideConnection,
    ForkClientSideConnection,
    ForkConnection,
)
from pydantic import BaseModel
from runtime_harness import TRANSPORTS, open_memory

from acp_migrate.runtime import CommandAdvertiser, commands_to_wire

OWN = [
    {"name": "web", "description": "Search", "input": {"type": "text", "hint": "query"}},
    {"name": "test", "description": "Run the tests"},
]
ALWAYS = [
    {"name": "skill", "description": "A skill moved out of initialize"},
    {"name": "test", "description": "Also in the own list: the own one wins"},
]
MERGED = OWN + ALWAYS[:1]
OTHER = [{"name": "plan", "description": "Plan"}]


def wire(commands: Any, version: int = 1) -> list[dict[str, Any]]:
    return commands_to_wire(commands, version)


def client_list(h: Any, sid: str, rid: Any) -> list[dict[str, Any]]:
    """What the client has for ``sid``: the setup field, then each update replacing it."""
    _, response = h.response(rid)
    have = response.get("result", {}).get("availableCommands", [])
    for _, commands in h.updates(sid):
        have = commands
    return have


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("mode", ["naive_await", "naive_task"])
@pytest.mark.parametrize("transport", TRANSPORTS)
def test_sends_from_other_code_in_a_setup_handler_follow_the_response(
    aio: Any, harness: Any, transport: str, mode: str, version: int
) -> None:
    h = harness(transport, version)

    async def scenario() -> list[tuple[str, Any]]:
        runs = []
        for _ in range(5):
            runs.append(await h.new(mode=mode, commands=OWN, always=ALWAYS))
        await h.sync()
        return runs

    for sid, rid in aio.run(scenario()):
        index, _ = h.response(rid)
        assert all(at > index for at, _ in h.updates(sid)), "an update went out before its response"
        assert client_list(h, sid, rid) == wire(MERGED, version)
        assert len(h.updates(sid)) <= 1  # coalesced: never the own list, then the merged one


@pytest.mark.parametrize("version", [1, 2])
def test_send_from_a_task_after_the_handler_returned(aio: Any, version: int) -> None:
    async def scenario() -> Any:
        h = await open_memory(version)
        try:
            sid, rid = await h.new(mode="naive_after", commands=OWN, always=ALWAYS)
            assert h.agent.commands.stats()["sessions"] == 1
            h.agent.release.set()  # the task sends now, the response is out
            await asyncio.gather(*h.agent.source.tasks)
            await h.sync()
        finally:
            await h.close()
        return h, sid, rid

    h, sid, rid = aio.run(scenario())
    index, response = h.response(rid)
    updates = h.updates(sid)
    if version == 1:
        # The follow-up carried the always commands; the task's list replaced it, merged.
        assert [commands for _, commands in updates] == [wire(ALWAYS, 1), wire(MERGED, 1)]
    else:
        assert response["result"]["availableCommands"] == wire(ALWAYS, 2)
        assert [commands for _, commands in updates] == [wire(MERGED, 2)]
    assert updates[0][0] > index


def test_sends_on_an_open_session_are_merged_and_deduplicated(aio: Any) -> None:
    async def scenario() -> Any:
        h = await open_memory(1)
        try:
            sid, _ = await h.new(commands=OWN, always=ALWAYS)
            for commands in (OWN, MERGED, OTHER, OTHER, [], []):
                await h.conn.ext_method("source_send", {"sessionId": sid, "commands": commands})
            await h.publish(sid, OWN)
            await h.sync()
        finally:
            await h.close()
        return h, sid

    h, sid = aio.run(scenario())
    assert h.lists(sid) == [
        wire(MERGED),  # the v1 follow-up
        # OWN and MERGED advertise what the client has: nothing sent
        wire(OTHER + ALWAYS),
        wire(ALWAYS),  # [] clears the own list; the always commands stay
        wire(MERGED),  # publish
    ]


def test_raw_updates_are_parsed_tolerantly(aio: Any) -> None:
    raw = [
        None,
        {"name": "web", "description": "Search", "input": {"type": "text", "hint": "q"}},
        {"name": "pick", "description": "Choose", "input": {"type": "_choice", "options": ["a", "b"]}},
        {"name": "v1", "description": "v1 input shape", "input": {"hint": "h"}},
        {"description": "no name"},
        "garbage",
    ]

    async def scenario() -> Any:
        h = await open_memory(2)
        try:
            sid, _ = await h.new(commands=[], always=OTHER)
            inner = h.agent.conn._conn  # what other code reaches with the SDK's raw API
            await inner.send_notification(
                "session/update",
                {"sessionId": sid, "update": {"sessionUpdate": "available_commands_update", "availableCommands": raw}},
            )
            await inner.send_notification(
                "session/update",
                {"sessionId": sid, "update": {"sessionUpdate": "available_commands_update", "availableCommands": None}},
            )
            await h.sync()
        finally:
            await h.close()
        return h, sid

    h, sid = aio.run(scenario())
    assert h.lists(sid) == [
        [
            {"name": "web", "description": "Search", "input": {"type": "text", "hint": "q"}},
            {"name": "pick", "description": "Choose", "input": {"type": "_choice", "options": ["a", "b"]}},
            {"name": "v1", "description": "v1 input shape", "input": {"type": "text", "hint": "h"}},
            *wire(OTHER, 2),
        ],
        wire(OTHER, 2),  # null counts as no commands: the own list clears, never null on the wire
    ]


def test_other_notifications_pass_straight_through(aio: Any) -> None:
    async def scenario() -> Any:
        h = await open_memory(1)
        try:
            sid, _ = await h.new(commands=OWN)
            conn = h.agent.conn
            await conn.session_update(sid, update_agent_message_text("hello"))
            await conn.ext_notification("custom", {"x": 1})
            await h.sync()
        finally:
            await h.close()
        return h, sid

    h, _ = aio.run(scenario())
    methods = [f.get("method") for f in h.frames]
    assert "_custom" in methods
    chunks = [f for f in h.frames if f.get("params", {}).get("update", {}).get("sessionUpdate") == "agent_message_chunk"]
    assert len(chunks) == 1 and chunks[0]["params"]["update"]["content"]["text"] == "hello"


def test_wrapper_hands_other_messages_over_unchanged() -> None:
    inner = ForkConnection()
    adv = CommandAdvertiser().bind(inner)
    params = {"sessionId": "s", "update": {"sessionUpdate": "agent_message_chunk"}}
    asyncio.run(inner.send_notification("session/update", params))
    other = {"k": [1]}
    asyncio.run(inner.send_notification("_ext", other))
    assert inner.written[0]["params"] is params and inner.written[1]["params"] is other
    assert adv.stats()["held_unknown"] == 0


def test_closed_sessions_ignore_intercepted_updates(aio: Any) -> None:
    async def scenario() -> Any:
        h = await open_memory(1)
        try:
            sid, _ = await h.new(commands=OWN)
            await h.conn.close_session(session_id=sid)
            await h.conn.ext_method("source_send", {"sessionId": sid, "commands": OTHER})
            stats = await h.sync()
        finally:
            await h.close()
        return h, sid, stats

    h, sid, stats = aio.run(scenario())
    assert h.lists(sid) == [wire(OWN)]
    assert stats["held_unknown"] == 0 and stats["sessions"] == 0


@pytest.mark.parametrize("version", [1, 2])
def test_bind_at_the_top_of_initialize_learns_the_version(aio: Any, harness: Any, version: int) -> None:
    h = harness("memory", version, bind="initialize")

    async def scenario() -> tuple[dict[str, Any], str, Any]:
        sid, rid = await h.new(mode="naive_task", commands=OWN, always=ALWAYS)
        return await h.sync(), sid, rid

    stats, sid, rid = aio.run(scenario())
    assert stats["version"] == version
    assert client_list(h, sid, rid) == wire(MERGED, version)
    assert all(at > h.response(rid)[0] for at, _ in h.updates(sid))


def test_bind_twice_and_one_advertiser_per_connection(aio: Any, harness: Any) -> None:
    h = harness("memory", 1)
    adv, conn = h.agent.commands, h.agent.conn
    assert adv.bind(conn) is adv  # again: nothing changes
    assert adv.bind(conn._conn) is adv  # its inner Connection is the same connection
    assert conn._conn._observers.count(adv.observer) == 1
    with pytest.raises(RuntimeError, match="another connection"):
        adv.bind(ForkConnection())
    with pytest.raises(RuntimeError, match="one per connection"):
        CommandAdvertiser().bind(conn)

    async def scenario() -> tuple[str, Any]:
        sid, rid = await h.new(mode="naive_await", commands=OWN)
        await h.sync()
        return sid, rid

    sid, _ = aio.run(scenario())
    assert h.lists(sid) == [wire(OWN)]  # one wrapper, one send


def test_bind_refuses_what_it_cannot_use(aio: Any, harness: Any) -> None:
    h = harness("memory", 1)
    with pytest.raises(TypeError, match="client side.*AgentSideConnection"):
        CommandAdvertiser().bind(h.conn)  # SDK 0.12 ClientSideConnection
    with pytest.raises(TypeError, match="client side"):
        CommandAdvertiser().bind(ForkClientSideConnection())
    with pytest.raises(TypeError, match="cannot bind object"):
        CommandAdvertiser().bind(object())

    class OldClientSide:  # SDK 0.4-0.6 ClientSideConnection: camelCase, same inner Connection
        def __init__(self) -> None:
            self._conn = ForkConnection()

        async def newSession(self, params: Any) -> Any: ...

    with pytest.raises(TypeError, match="client side"):
        CommandAdvertiser().bind(OldClientSide())

    class EarlyAgentSide:  # SDK 0.4-0.6 during the agent factory: no _conn yet
        async def sessionUpdate(self, params: Any) -> None: ...

    with pytest.raises(TypeError, match="top of initialize"):
        CommandAdvertiser().bind(EarlyAgentSide())


def test_a_fork_without_add_observer_is_registered_through_observers() -> None:
    """AgentPool's design: observers in ``_observers``, model-taking ``session_update``."""
    from acp.schema import AvailableCommandsUpdate, SessionNotification

    async def scenario() -> ForkConnection:
        client = ForkAgentSideConnection()
        inner = client._conn
        adv = CommandAdvertiser().bind(client)
        assert inner._observers == [adv.observer]
        inner.receive({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": 1}})
        await inner.respond(0, {"protocolVersion": 1})
        inner.receive({"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": {"cwd": "/", "mcpServers": []}})

        async def handler() -> dict[str, Any]:  # runs in the request's context, as the fork's do
            update = AvailableCommandsUpdate(session_update="available_commands_update", available_commands=OWN)
            await client.session_update(SessionNotification(session_id="fork-1", update=update))
            return adv.attach({"sessionId": "fork-1"}, always=ALWAYS)

        result = await asyncio.get_running_loop().create_task(handler())
        assert inner.commands_updates() == []  # held: the response is not out
        await inner.respond(1, result)
        await adv.publish("fork-1", OWN)  # nothing new
        return inner

    inner = asyncio.run(scenario())
    updates = inner.commands_updates("fork-1")
    assert [commands for _, commands in updates] == [wire(MERGED)]
    assert updates[0][0] > inner.index_of_response(1)


def test_attach_on_a_fork_response_model_with_camel_case_fields() -> None:
    """SDK 0.4-0.6 models name the session ``sessionId``; attach finds it."""

    class OldNewSessionResponse(BaseModel):
        sessionId: str  # the SDK 0.4-0.6 field name

    adv = CommandAdvertiser().bind(ForkConnection())
    response = OldNewSessionResponse(sessionId="old")
    assert adv.attach(response, always=OTHER) is response  # v1: the list follows the response
    assert adv.stats()["held_unknown"] == 1


def test_a_raw_sdk_connection_is_accepted(aio: Any) -> None:
    from acp._transport import memory_transport_pair
    from acp.connection import Connection

    async def scenario() -> list[Any]:
        agent_end, client_end = memory_transport_pair()

        async def handler(method: str, params: Any, is_notification: bool) -> Any:
            return None

        conn = Connection(handler, agent_end, listening=False)
        adv = CommandAdvertiser().bind(conn)
        assert conn._observers == [adv.observer]
        await conn.send_notification("_ping", {"n": 1})  # through the wrapper, unchanged
        received = [await client_end.receive()]
        await conn.close()
        return received

    assert aio.run(scenario()) == [{"jsonrpc": "2.0", "method": "_ping", "params": {"n": 1}}]


def test_advertise_without_attach_merges_at_each_setup_and_commands_reads_it() -> None:
    """The migrated shape: handlers unedited, the moved commands given once to `advertise`
    (a callable, read at each setup response); `commands` says what a session advertises."""
    from unittest.mock import Mock

    from acp.schema import AvailableCommand, AvailableCommandsUpdate, SessionNotification

    skills = [AvailableCommand(name="skill", description="A skill moved out of initialize")]

    async def scenario() -> tuple[ForkConnection, CommandAdvertiser]:
        client = ForkAgentSideConnection()
        inner = client._conn
        adv = CommandAdvertiser().bind(client).advertise(lambda: skills)
        inner.receive({"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": {"cwd": "/", "mcpServers": []}})
        update = AvailableCommandsUpdate(session_update="available_commands_update", available_commands=OWN)
        await asyncio.get_running_loop().create_task(
            client.session_update(SessionNotification(session_id="a-1", update=update))
        )
        await inner.respond(1, {"sessionId": "a-1"})
        skills.append(AvailableCommand(name="plan", description="Added later"))  # read at the next setup
        inner.receive({"jsonrpc": "2.0", "id": 2, "method": "session/new", "params": {"cwd": "/", "mcpServers": []}})
        await inner.respond(2, {"sessionId": "a-2"})
        await adv.publish("a-1", OWN)  # waits for the queued sends; nothing new for a-1
        return inner, adv

    inner, adv = asyncio.run(scenario())
    assert [c for _, c in inner.commands_updates("a-1")] == [wire(MERGED)]
    assert inner.commands_updates("a-1")[0][0] > inner.index_of_response(1)
    assert [c for _, c in inner.commands_updates("a-2")] == [wire(ALWAYS[:1] + [{"name": "plan", "description": "Added later"}])]
    assert [c.name for c in adv.commands("a-1")] == ["web", "test", "skill", "plan"]
    assert adv.commands() == skills  # as given
    mocked = CommandAdvertiser().bind(Mock()).advertise(skills)
    assert mocked.commands("any") == skills
