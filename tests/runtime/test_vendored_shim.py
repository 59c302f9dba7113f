"""The vendored shim (`acp_migrate/runtime/vendored.py`, as `vendored_source()` writes it) on the
wire: a migrated agent (tests/runtime/vendored_agent.py) on SDK 1.0.0rc3, 0.12.1 and on 0.4.9,
0.5.0 and 0.6.3, each in its own virtualenv, acp-migrate not importable, driven in raw JSON-RPC.

Per session, in wire order: its setup response, then one list (its own, then the advertised
commands it lacks by name); the server's own update sent during the handler held until then;
nothing for a failed setup; an identical list not sent again; a session the advertiser never
saw set up gets the server's list merged at once; a closed session is forgotten.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any
from unittest.mock import Mock

import acp
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # support/; conftest puts this folder

from support.acp_raw import FROM_AGENT, RawAgent
from support.sdk_venv import sdk_env, sdk_python

from acp_migrate.vendor import VENDORED_FILE, vendored_source

HERE = Path(__file__).resolve().parent
AGENT = HERE / "vendored_agent.py"
NEW = [
    {"name": "web", "description": "Search the web", "input": {"hint": "query"}},
    {"name": "test", "description": "Run the tests"},
]
SKILL = {"name": "skill", "description": "A skill"}
TEST = {"name": "test", "description": "Also an own command"}
MODERN = ("1.0.0rc3", "0.12.1")  # resume, fork and close
LOAD = [{"name": "resume-work", "description": "Pick up where the session stopped"}]


def frames_of(agent: RawAgent, session_id: str) -> list[Any]:
    """The session's setup responses (by method) and commands lists, in wire order."""
    methods = {m["id"]: m["method"] for d, m in agent.frames if d != FROM_AGENT and "id" in m and "method" in m}
    seen = []
    for direction, message in agent.frames:
        if direction != FROM_AGENT:
            continue
        params = message.get("params") or {}
        update = params.get("update") or {}
        if update.get("sessionUpdate") == "available_commands_update" and params.get("sessionId") == session_id:
            seen.append(update.get("availableCommands", "MISSING"))
        elif "method" not in message and message.get("id") in methods:
            method = methods[message["id"]]
            asked = next(m for d, m in agent.frames if d != FROM_AGENT and m.get("id") == message["id"])
            named = (message.get("result") or {}).get("sessionId") or asked["params"].get("sessionId")
            if named == session_id and method.startswith("session/"):
                assert "availableCommands" not in (message.get("result") or {})  # results are not edited
                seen.append(method if "result" in message else method + " failed")
    return seen


async def drive(python: Path, folder: Path, modern: bool, *args: str) -> tuple[RawAgent, dict[str, Any]]:
    env = {**sdk_env(), "PYTHONPATH": str(folder)}  # the vendored file alone, no acp-migrate
    async with RawAgent([python, AGENT, *args], cwd=folder, env=env) as agent:
        await agent.request("initialize", {"protocolVersion": 1, "clientCapabilities": {}})
        setup = {"cwd": "/", "mcpServers": []}
        for cwd in ("/", "/fail", "/quiet"):
            answer = await agent.request("session/new", {**setup, "cwd": cwd})
            assert ("error" in answer) == (cwd == "/fail"), answer
        await agent.request("session/load", {**setup, "sessionId": "s-1"})
        await agent.request("session/load", {**setup, "sessionId": "stored"})
        await agent.request("session/load", {**setup, "cwd": "/fail", "sessionId": "lost"})
        # The server's own list for an open session: merged and sent; the same again: nothing.
        for _ in range(2):
            await agent.request("_send", {"sessionId": "s-3", "commands": [{"name": "plan", "description": "Plan"}]})
        await agent.request("_send", {"sessionId": "elsewhere", "commands": []})  # never set up here
        if modern:
            await agent.request("session/resume", {**setup, "sessionId": "s-3"})
            fork = await agent.request("session/fork", {**setup, "sessionId": "s-3"})
            assert fork["result"]["sessionId"] == "s-4"
            await agent.request("session/close", {"sessionId": "s-1"})
        state = (await agent.request("_state", {}))["result"]
    return agent, state


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("vendored")
    (folder / VENDORED_FILE).write_bytes(vendored_source())
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("release", ["1.0.0rc3", "0.12.1", "0.6.3", "0.5.0", "0.4.9"])
def test_each_session_gets_its_list_after_its_setup_response(release: str, folder: Path) -> None:
    modern = release in MODERN
    agent, state = asyncio.run(drive(sdk_python(release), folder, modern))
    merged_new = [*NEW, SKILL]  # the own "test" wins over the advertised one
    closed = ["session/close"] if modern else []
    assert frames_of(agent, "s-1") == ["session/new", merged_new, "session/load", [*LOAD, SKILL, TEST], *closed]
    assert frames_of(agent, "s-2") == []  # its own update, sent before it failed, never went out
    assert frames_of(agent, "stored") == ["session/load", [*LOAD, SKILL, TEST]]
    assert frames_of(agent, "lost") == ["session/load failed"]
    assert frames_of(agent, "elsewhere") == [[SKILL, TEST]]
    plan = [{"name": "plan", "description": "Plan"}, SKILL, TEST]
    s3 = ["session/new", [SKILL, TEST], plan]  # the same list sent twice by the server: once
    if modern:
        resumed = [{"name": "resumed", "description": "Resumed"}, SKILL, TEST]
        assert frames_of(agent, "s-3") == [*s3, "session/resume", resumed]
        assert frames_of(agent, "s-4") == ["session/fork", [{"name": "forked", "description": "Forked"}, SKILL, TEST]]
        # s-1 closed: forgotten; open: s-3, s-4, stored.
        assert state == {"_own": 3, "_sent": 3, "_setup": 0, "_pending": 0, "commands": ["skill", "test"]}
    else:
        assert frames_of(agent, "s-3") == s3
        assert state == {"_own": 3, "_sent": 3, "_setup": 0, "_pending": 0, "commands": ["skill", "test"]}


@pytest.mark.slow
@pytest.mark.parametrize("release", ["1.0.0rc3", "0.12.1", "0.4.9"])
def test_without_the_shim_the_own_list_goes_before_the_response(release: str, folder: Path) -> None:
    """Negative control: the same handlers without the advertiser show the race."""
    agent, _ = asyncio.run(drive(sdk_python(release), folder, release in MODERN, "--no-shim"))
    assert frames_of(agent, "s-1")[:2] == [NEW, "session/new"]
    assert frames_of(agent, "s-2") == [NEW]


@pytest.mark.slow
def test_with_the_sdk_s_own_client(folder: Path) -> None:
    """SDK 0.12.1 on both ends: the client's requests, the agent's vendored shim."""
    from support.acp_stdio import AgentProcess

    async def scenario() -> AgentProcess:
        env = {"PYTHONPATH": str(folder)}
        async with AgentProcess(AGENT, python=str(sdk_python("0.12.1")), cwd=folder, env=env) as agent:
            await agent.initialize()
            sid = await agent.new_session(cwd="/")
            await agent.load_session(sid, cwd="/")
            await agent.resume_session(sid, cwd="/")
            forked = await agent.fork_session(sid, cwd="/")
            await agent.close_session(forked)
            await agent.drain()
        return agent

    agent = asyncio.run(scenario())
    assert frames_of(agent, "s-1") == [
        "session/new",
        [*NEW, SKILL],
        "session/load",
        [*LOAD, SKILL, TEST],
        "session/resume",
        [{"name": "resumed", "description": "Resumed"}, SKILL, TEST],
    ]
    forked = [{"name": "forked", "description": "Forked"}, SKILL, TEST]
    assert frames_of(agent, "s-2") == ["session/fork", forked, "session/close"]


@pytest.mark.slow
def test_an_open_session_gets_the_lists_of_failed_setups_and_sends(folder: Path) -> None:
    """The session stays open when its load or resume fails, and owns the list the server
    sent meanwhile; a list whose send raised was not sent, so its retry goes out; a `null`
    item of the server's raw update is left out (SDK 0.12.1 on both ends)."""
    from support.acp_stdio import AgentProcess

    plan = [{"name": "plan", "description": "Plan"}]

    async def scenario() -> tuple[AgentProcess, list[Any]]:
        env = {"PYTHONPATH": str(folder)}
        async with AgentProcess(AGENT, python=str(sdk_python("0.12.1")), cwd=folder, env=env) as agent:
            await agent.initialize()
            sid = await agent.new_session(cwd="/")
            for setup in (agent.load_session, agent.resume_session):
                with pytest.raises(acp.RequestError):
                    await setup(sid, cwd="/fail")
            sends = [
                await agent.conn.ext_method("send", {"sessionId": sid, "commands": plan, "failOnce": True}),
                await agent.conn.ext_method("send", {"sessionId": sid, "commands": plan}),
                await agent.conn.ext_method("send", {"sessionId": sid, "commands": [None, SKILL], "raw": True}),
                await agent.conn.ext_method("state", {}),
            ]
            await agent.drain()
        return agent, sends

    agent, sends = asyncio.run(scenario())
    assert sends[:3] == [{"raised": "the write failed"}, {}, {}]
    assert frames_of(agent, "s-1") == [
        "session/new",
        [*NEW, SKILL],
        "session/load failed",
        [*LOAD, SKILL, TEST],
        "session/resume failed",
        [{"name": "resumed", "description": "Resumed"}, SKILL, TEST],
        [*plan, SKILL, TEST],
        [SKILL, TEST],
    ]
    assert sends[3] == {"_own": 1, "_sent": 1, "_setup": 0, "_pending": 0, "commands": ["skill", "test"]}


@pytest.mark.slow
def test_binding_a_client_side_connection_is_refused(folder: Path) -> None:
    """The client's end of a connection never carries the agent's lists: a clear error."""

    class Client:
        async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
            return None

    async def scenario() -> None:
        python = str(sdk_python("0.12.1"))
        env = {**sdk_env(), "PYTHONPATH": str(folder)}
        async with acp.spawn_agent_process(Client(), python, str(AGENT), env=env, cwd=str(folder)) as (conn, _):
            advertiser = load_vendored(folder).CommandAdvertiser()
            with pytest.raises(TypeError, match="agent side"):
                advertiser.bind(conn)
            await conn.initialize(protocol_version=1)  # the connection still works

    asyncio.run(scenario())


def load_vendored(folder: Path) -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("acp_command_advertiser", folder / VENDORED_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_mock_client_binds_and_commands_are_readable_without_a_wire(folder: Path) -> None:
    from acp.schema import AvailableCommand

    advertiser = load_vendored(folder).CommandAdvertiser()
    assert advertiser.commands() == []
    skill = AvailableCommand(name="skill", description="A skill")
    assert advertiser.bind(Mock()) is advertiser and advertiser.bind(Mock()) is advertiser
    assert advertiser.advertise(lambda: [skill, {"name": "skill", "description": "again"}]) is advertiser
    assert advertiser.commands() == [skill] and advertiser.commands("s-1")[0].name == "skill"
    advertiser.advertise([{"name": "web", "description": "Search"}])
    assert [c["name"] for c in advertiser.commands("s-1")] == ["web"]


def test_an_agent_never_connected_binds_nothing_and_a_later_bind_takes_the_connection(
    folder: Path, fork_acp: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """fix binds first thing in `initialize`, from the attribute `on_connect` fills: a unit
    test calling `initialize` on an agent it never connected binds `None`, said once in
    the log (not a Python warning: the test's output stays clean)."""
    import logging

    ForkConnection, ForkAgentSideConnection = fork_acp
    vendored = load_vendored(folder).CommandAdvertiser()
    with caplog.at_level(logging.WARNING):
        assert vendored.bind(None) is vendored and vendored.bind(None) is vendored
    assert [r.getMessage() for r in caplog.records] == [
        "CommandAdvertiser: bind(None); not connected: nothing is advertised"
    ]
    assert vendored.advertise([SKILL]).commands() == [SKILL]
    conn = ForkConnection()
    assert vendored.bind(ForkAgentSideConnection(conn)) is vendored
    with pytest.raises(RuntimeError):  # bound now: another connection is refused
        vendored.bind(ForkAgentSideConnection(ForkConnection()))


def test_binding_the_same_connection_again_does_nothing(folder: Path) -> None:
    from acp.connection import Connection

    async def scenario() -> None:
        conn = Connection(Mock(), Mock(), asyncio.StreamReader(), listening=False)

        class AgentSide:  # what the SDK hands on_connect: the JSON-RPC connection in _conn
            _conn = conn

        advertiser = load_vendored(folder).CommandAdvertiser()
        assert advertiser.bind(AgentSide()) is advertiser
        wrapped = conn.send_notification
        assert advertiser.bind(conn) is advertiser and conn.send_notification is wrapped
        assert conn._observers.count(advertiser._observe) == 1
        with pytest.raises(TypeError):
            advertiser.bind(object())
        with pytest.raises(RuntimeError):
            advertiser.bind(Connection(Mock(), Mock(), asyncio.StreamReader(), listening=False))
        with pytest.raises(RuntimeError, match="advertiser already"):  # a second one would send twice
            load_vendored(folder).CommandAdvertiser().bind(conn)

    asyncio.run(scenario())


def test_agentpool_s_fork_without_add_observer(folder: Path, fork_acp: Any) -> None:
    from pydantic import BaseModel, ConfigDict, Field

    ForkConnection, ForkAgentSideConnection = fork_acp

    class AvailableCommand(BaseModel):  # AgentPool's schema models: aliases, dumped by alias
        model_config = ConfigDict(populate_by_name=True)
        name: str
        description: str
        input_hint: str | None = Field(default=None, alias="inputHint")

    async def scenario() -> ForkConnection:
        conn = ForkConnection()
        advertiser = load_vendored(folder).CommandAdvertiser()
        skills = [AvailableCommand(name="skill", description="A skill")]
        advertiser.bind(ForkAgentSideConnection(conn)).advertise(lambda: skills)
        assert conn._observers == [advertiser._observe]
        conn.receive({"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": {"cwd": "/"}})
        own = [{"name": "web", "description": "Search"}]
        update = {"sessionUpdate": "available_commands_update", "availableCommands": own}
        await conn.send_notification("session/update", {"sessionId": "p-1", "update": update})
        assert conn.written == []  # held: the session's setup response is not out
        await conn.respond(1, {"sessionId": "p-1"})
        await asyncio.gather(*conn.tasks)
        assert advertiser.commands("p-1") == [*own, *skills]  # the own list as sent, then as given
        return conn

    written = asyncio.run(scenario()).written
    update = {
        "sessionUpdate": "available_commands_update",
        "availableCommands": [{"name": "web", "description": "Search"}, {"name": "skill", "description": "A skill"}],
    }
    assert written == [
        {"jsonrpc": "2.0", "id": 1, "result": {"sessionId": "p-1"}},
        {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "p-1", "update": update}},
    ]


def test_state_is_bounded_by_live_sessions(folder: Path, fork_acp: Any) -> None:
    """A thousand sessions set up, told their own lists, and closed (or failed) leave nothing."""
    ForkConnection, ForkAgentSideConnection = fork_acp

    async def scenario() -> Any:
        conn = ForkConnection()
        advertiser = load_vendored(folder).CommandAdvertiser().advertise([SKILL])
        advertiser.bind(ForkAgentSideConnection(conn))
        update = {"sessionUpdate": "available_commands_update", "availableCommands": NEW}
        for n in range(1000):
            sid, new, close = f"b-{n}", 2 * n, 2 * n + 1
            conn.receive({"jsonrpc": "2.0", "id": new, "method": "session/new", "params": {"cwd": "/"}})
            await conn.send_notification("session/update", {"sessionId": sid, "update": update})
            if n % 2:  # every other setup fails
                await conn.respond(new, error={"code": -32603, "message": "failed"})
                continue
            await conn.respond(new, {"sessionId": sid})
            await asyncio.gather(*conn.tasks)
            conn.receive({"jsonrpc": "2.0", "id": close, "method": "session/close", "params": {"sessionId": sid}})
            await conn.respond(close, {})
        return conn, advertiser

    conn, advertiser = asyncio.run(scenario())
    tables = (advertiser._own, advertiser._sent, advertiser._setup, advertiser._pending)
    assert [len(table) for table in tables] == [0, 0, 0, 0]
    sent = conn.commands_updates()
    assert len(sent) == 500 and all(commands == [*NEW, SKILL] for _, commands in sent)
    assert {m["params"]["sessionId"] for m in conn.written if m.get("method")} == {f"b-{n}" for n in range(0, 1000, 2)}


def test_a_setup_read_before_bind_still_gets_its_list(folder: Path, fork_acp: Any) -> None:
    """A client that sends session/new before the initialize answer arrives: the request is
    read before `bind` (first thing in initialize) runs, so the advertiser never saw it. Its
    response names the session: that is the session's setup, and its list follows it."""
    ForkConnection, ForkAgentSideConnection = fork_acp

    async def scenario() -> ForkConnection:
        conn = ForkConnection()
        conn.receive({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": 1}})
        conn.receive({"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": {"cwd": "/"}})
        advertiser = load_vendored(folder).CommandAdvertiser()  # bound in initialize, after both reads
        advertiser.bind(ForkAgentSideConnection(conn)).advertise([SKILL])
        await conn.respond(0, {"protocolVersion": 1})  # names no session: nothing
        await conn.respond(1, {"sessionId": "early"})
        await asyncio.gather(*conn.tasks)
        await conn.respond(2, {"sessionId": "early"})  # a later answer naming it: already set up
        await asyncio.gather(*conn.tasks)
        return conn

    conn = asyncio.run(scenario())
    assert conn.commands_updates() == [(2, [SKILL])]
    assert conn.index_of_response(1) == 1
