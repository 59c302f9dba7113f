"""Merge semantics: a session advertises its own list, then its ``always`` commands.

Driven through a connection built like AgentPool's fork (fake_connection.py): the
test plays the SDK's part (observers see a request before its handler runs and a
response after it is written), so every step is explicit and nothing waits on time.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from fake_connection import ForkConnection

from acp_migrate.runtime import Command, CommandAdvertiser, commands_to_wire


def cmd(name: str, description: str = "") -> dict[str, Any]:
    return {"name": name, "description": description or f"the {name} command"}


class Peer:
    """An advertiser on a fake connection, with the protocol steps a test needs."""

    def __init__(self, version: int = 1, **kwargs: Any) -> None:
        self.conn = ForkConnection()
        self.adv = CommandAdvertiser(**kwargs).bind(self.conn)
        self.version = version
        self._ids = iter(range(1000))
        rid = self.request("initialize", {"protocolVersion": version})
        self._init = (rid, {"protocolVersion": version})

    async def start(self) -> Peer:
        await self.conn.respond(*self._init)
        return self

    def request(self, method: str, params: dict[str, Any]) -> int:
        rid = next(self._ids)
        self.conn.receive({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return rid

    async def setup(self, method: str, sid: str, handler: Any, fail: bool = False) -> Any:
        """Run ``handler()`` as the SDK would for a setup request; write its response."""
        params = {"cwd": "/", "sessionId": sid} if method in ("session/load", "session/resume") else {"cwd": "/"}
        rid = self.request(method, params)
        result = await asyncio.get_running_loop().create_task(handler())
        if fail:
            await self.conn.respond(rid, error={"code": -32603, "message": "failed"})
        else:
            result = result.model_dump(by_alias=True, exclude_none=True) if hasattr(result, "model_dump") else result
            await self.conn.respond(rid, result or {})
        await self.settle()
        return rid

    async def settle(self) -> None:
        """Wait for the send the advertiser started on its own (the follow-up after a response)."""
        while (task := self.adv._task) is not None:
            await task

    def lists(self, sid: str) -> list[Any]:
        return [commands for _, commands in self.conn.commands_updates(sid)]

    def wire(self, commands: Any) -> list[dict[str, Any]]:
        return commands_to_wire(commands, self.version)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


OWN = [cmd("web"), cmd("test")]
ALWAYS = [cmd("skill"), cmd("test", "always's test: the own one wins")]
MERGED = OWN + ALWAYS[:1]


def test_own_then_always_deduplicated_first_wins() -> None:
    async def scenario() -> Peer:
        peer = await Peer().start()
        own = [cmd("b"), cmd("a"), cmd("b", "a second b: dropped")]
        await peer.setup("session/new", "s", lambda: _attach(peer.adv, {"sessionId": "s"}, own, ALWAYS))
        return peer

    peer = run(scenario())
    assert peer.lists("s") == [peer.wire([cmd("b"), cmd("a"), *ALWAYS])]


async def _attach(adv: CommandAdvertiser, response: Any, commands: Any = None, always: Any = None, sid: Any = None) -> Any:
    return adv.attach(response, sid, commands, always=always)


def test_clear_keeps_always_and_publish_replaces_only_the_own_list() -> None:
    async def scenario() -> Peer:
        peer = await Peer().start()
        await peer.setup("session/new", "s", lambda: _attach(peer.adv, {"sessionId": "s"}, OWN, ALWAYS))
        await peer.adv.publish("s", [cmd("plan")])
        await peer.adv.clear("s")
        await peer.adv.clear("s")  # nothing new
        await peer.adv.publish("s", None)  # None clears too: nothing new
        await peer.adv.publish("s", ALWAYS[:1])  # advertises what the client has: nothing sent
        return peer

    peer = run(scenario())
    assert peer.lists("s") == [peer.wire(MERGED), peer.wire([cmd("plan"), *ALWAYS]), peer.wire(ALWAYS)]


def test_a_later_attach_replaces_always_and_none_leaves_lists_alone() -> None:
    async def scenario() -> Peer:
        peer = await Peer().start()
        await peer.setup("session/new", "s", lambda: _attach(peer.adv, {"sessionId": "s"}, OWN, ALWAYS))
        # Load of the open session: new always list, own list left as it is.
        await peer.setup("session/load", "s", lambda: _attach(peer.adv, None, always=[cmd("other")], sid="s"))
        # Load again, attach without lists: both stay; the load re-advertises them.
        await peer.setup("session/load", "s", lambda: _attach(peer.adv, None, sid="s"))
        return peer

    peer = run(scenario())
    again = peer.wire([*OWN, cmd("other")])
    assert peer.lists("s") == [peer.wire(MERGED), again, again]


def test_a_list_the_handler_put_in_the_result_counts_as_its_own() -> None:
    async def scenario() -> Peer:
        peer = await Peer(version=2).start()
        field = commands_to_wire([cmd("mine")], 2)

        async def handler() -> Any:
            return peer.adv.attach({"sessionId": "s", "availableCommands": field}, always=[])

        rid = await peer.setup("session/new", "s", handler)
        assert peer.conn.written[peer.conn.index_of_response(rid)]["result"]["availableCommands"] == field
        await peer.adv.publish("s", [cmd("mine")])  # the same: nothing sent
        return peer

    peer = run(scenario())
    assert peer.lists("s") == []


def test_a_send_in_flight_is_not_mistaken_for_what_the_client_has() -> None:
    """Publishing the client's list back while another list is being written sends it again."""

    async def scenario() -> Peer:
        peer = await Peer().start()
        await peer.setup("session/new", "s", lambda: _attach(peer.adv, {"sessionId": "s"}, OWN))
        peer.conn.hold, peer.conn.held_write = asyncio.Event(), asyncio.Event()
        first = asyncio.ensure_future(peer.adv.publish("s", [cmd("x")]))
        await peer.conn.held_write.wait()
        second = asyncio.ensure_future(peer.adv.publish("s", OWN))  # what the client had before x
        await asyncio.sleep(0)
        assert not second.done(), "must wait: x is on its way, so OWN has to follow it"
        peer.conn.hold.set()
        await asyncio.gather(first, second)
        return peer

    peer = run(scenario())
    assert peer.lists("s") == [peer.wire(OWN), peer.wire([cmd("x")]), peer.wire(OWN)]


@pytest.mark.parametrize("seed", range(20))
def test_no_command_of_either_list_is_ever_lost(seed: int) -> None:
    """The merge rule: every list advertised holds every command of the own list and of always."""
    rng = random.Random(seed)
    names = [f"c{i}" for i in range(8)]

    def some() -> list[dict[str, Any]]:
        return [cmd(name, f"{name} #{rng.randrange(3)}") for name in rng.sample(names, rng.randrange(0, 6))]

    async def scenario() -> tuple[Peer, list[tuple[list[dict[str, Any]], list[dict[str, Any]]]]]:
        peer = await Peer(version=rng.choice([1, 2])).start()
        always = some()
        history = []
        await peer.setup("session/new", "s", lambda: _attach(peer.adv, {"sessionId": "s"}, always=always))
        own: list[dict[str, Any]] = []
        for _ in range(15):
            step = rng.randrange(4)
            if step == 0:
                own = some()
                await peer.adv.publish("s", own)
            elif step == 1:
                own = some()
                update = {"sessionUpdate": "available_commands_update", "availableCommands": own}
                await peer.conn.send_notification("session/update", {"sessionId": "s", "update": update})
            elif step == 2:
                own = []
                await peer.adv.clear("s")
            else:
                always = some()
                await peer.setup("session/load", "s", lambda a=always: _attach(peer.adv, None, always=a, sid="s"))
            await peer.settle()
            history.append((own, always))
        return peer, history

    peer, history = run(scenario())
    final = peer.lists("s")[-1] if peer.lists("s") else []
    own, always = history[-1]
    names_sent = [c["name"] for c in final]
    assert len(names_sent) == len(set(names_sent))
    assert set(names_sent) == {c["name"] for c in own} | {c["name"] for c in always}
    # Order: the own list first, then always; the own one wins a name both have.
    expected = [Command.model_validate(c) for c in own]
    seen = {c.name for c in expected}
    expected += [Command.model_validate(c) for c in always if c["name"] not in seen]
    assert final == commands_to_wire(expected, peer.version)
