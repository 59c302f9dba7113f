"""Agent shapes where the setup request goes by unobserved (issues 23 and 30), each over
stdio with the SDK 0.12.1 client (tests/runtime/shape_agent.py); each case lost a list, or
sent one it must not, silently before its fix:

* a client that sends its setup request before the ``initialize`` answer while the agent
  binds inside ``initialize``: the list went out before the response, and the list of such
  a ``session/new`` that failed went out at all;
* an agent that also awaits ``conn.listen()`` on a connection that listens: the SDK's
  failing second receive loop made it refuse every notification, so every list was lost
  (bound in ``on_connect``, and bound in ``initialize``, after that loop had failed);
* ``bind(None)`` (``initialize`` binding what ``on_connect`` never filled) said nothing.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import acp
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # support/

from support.acp_stdio import FROM_AGENT, TO_AGENT, AgentProcess

from acp_migrate.vendor import VENDORED_FILE, vendored_source

HERE = Path(__file__).resolve().parent
AGENT = HERE / "shape_agent.py"
REPO = HERE.parents[1]
SKILL = {"name": "skill", "description": "A skill"}
OWN = {
    "session/new": {"name": "web", "description": "Search the web"},
    "session/load": {"name": "resume-work", "description": "Pick up where it stopped"},
    "session/resume": {"name": "resumed", "description": "Resumed"},
    "session/fork": {"name": "forked", "description": "Forked"},
}
UNATTRIBUTED = "answered naming no session"

pytestmark = pytest.mark.slow  # agents over stdio


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("vendored")
    (folder / VENDORED_FILE).write_bytes(vendored_source())
    return folder


def timeline(frames: list[Any], session_id: str) -> list[Any]:
    """The session's setup responses (by method) and commands lists, in wire order."""
    asked = {m["id"]: m for d, m in frames if d == TO_AGENT and "method" in m and "id" in m}
    seen: list[Any] = []
    for direction, message in frames:
        if direction != FROM_AGENT:
            continue
        params = message.get("params") or {}
        update = params.get("update") or {}
        if update.get("sessionUpdate") == "available_commands_update" and params.get("sessionId") == session_id:
            seen.append(update["availableCommands"])
        elif "method" not in message and message.get("id") in asked:
            request = asked[message["id"]]
            named = (message.get("result") or {}).get("sessionId") or (request.get("params") or {}).get("sessionId")
            if named == session_id and request["method"].startswith("session/"):
                seen.append(request["method"])
    return seen


async def run(folder: Path, shim: str, shape: str, scenario: Any, version: int = 1) -> tuple[AgentProcess, list[str]]:
    env = {"PYTHONPATH": f"{folder}:{REPO}"}
    async with AgentProcess(AGENT, shim, shape, env=env) as agent:
        await scenario(agent)
        log = (await agent.conn.ext_method("log", {}))["log"]
        await agent.drain()
    return agent, log


@pytest.mark.parametrize("method", ["session/new", "session/fork", "session/load", "session/resume"])
def test_a_setup_sent_before_the_initialize_answer_gets_its_list_after_its_response(folder: Path, method: str) -> None:
    async def scenario(agent: AgentProcess) -> None:
        setup = {
            "session/new": lambda: agent.new_session(),
            "session/fork": lambda: agent.fork_session("elsewhere"),
            "session/load": lambda: agent.load_session("old"),
            "session/resume": lambda: agent.resume_session("old"),
        }[method]
        await asyncio.gather(agent.initialize(protocol_version=1), setup())  # pipelined

    agent, log = asyncio.run(run(folder, "vendored", "pipelined", scenario))
    session_id = "old" if method in ("session/load", "session/resume") else "s-1"
    assert timeline(agent.frames, session_id) == [method, [OWN[method], SKILL]]
    # New and fork results name their session; a load or resume result cannot be told from
    # another response: said once (its list still followed it, held until it was out).
    warned = [line for line in log if UNATTRIBUTED in line]
    assert len(warned) == (1 if method in ("session/load", "session/resume") else 0), log
    if warned:
        assert "bind in on_connect" in warned[0].lower()


def test_a_failed_setup_sent_before_the_initialize_answer_gets_no_list(folder: Path) -> None:
    async def scenario(agent: AgentProcess) -> None:
        failed = agent.conn.new_session(cwd="/fail", mcp_servers=[])
        outcomes = await asyncio.gather(agent.initialize(protocol_version=1), failed, return_exceptions=True)
        assert isinstance(outcomes[1], acp.RequestError), outcomes
        assert await agent.new_session() == "s-2"  # a later one still gets its list

    agent, log = asyncio.run(run(folder, "vendored", "pipelined", scenario))
    assert timeline(agent.frames, "s-1") == []
    assert timeline(agent.frames, "s-2") == ["session/new", [OWN["session/new"], SKILL]]
    assert log == []


@pytest.mark.parametrize(
    ("shim", "shape"), [("none", "listen-twice"), ("vendored", "listen-twice"), ("vendored", "listen-twice-late")]
)
def test_an_agent_that_also_awaits_listen_gets_every_list(folder: Path, shim: str, shape: str) -> None:
    """SDK 0.12.1's AgentSideConnection listens once built; `await conn.listen()` starts a
    second receive loop, which fails and makes the SDK refuse notifications. The agent works
    (it only answers requests, as before its migration); every setup gets its list, and
    bound once that loop has failed, the advertiser says so once."""

    async def scenario(agent: AgentProcess) -> None:
        await agent.initialize(protocol_version=1)
        sid = await agent.new_session()
        await agent.load_session(sid)
        await agent.resume_session(sid)
        forked = await agent.fork_session(sid)
        assert forked == "s-2"

    agent, log = asyncio.run(run(folder, shim, shape, scenario))
    if shim == "none":  # the negative control: answers, sends nothing
        assert agent.command_updates() == {}
        return
    assert timeline(agent.frames, "s-1") == [
        "session/new",
        [SKILL],
        "session/load",
        [SKILL],
        "session/resume",
        [SKILL],
    ]
    assert timeline(agent.frames, "s-2") == ["session/fork", [SKILL]]
    if shape == "listen-twice":  # bound before: the second loop waits for the first
        assert "Receive loop failed" not in agent.stderr and log == []
    else:
        said = [line for line in log if line.startswith("CommandAdvertiser")]
        assert said == ["CommandAdvertiser: a second receive loop failed; await listen() once"], log


def test_binding_none_is_said_once(folder: Path) -> None:
    """Misuse (or a unit test's agent never connected): `bind(None)` binds nothing and
    says so once, in the log; the agent still answers."""

    async def scenario(agent: AgentProcess) -> None:
        await agent.initialize(protocol_version=1)
        await agent.new_session()

    agent, log = asyncio.run(run(folder, "vendored", "never-connected", scenario))
    assert agent.command_updates() == {}
    assert log == ["CommandAdvertiser: bind(None); not connected: nothing is advertised"], log


def test_bind_inside_a_session_handler_still_orders_lists(folder: Path) -> None:
    """Misuse: bound in the first session/new handler, after initialize went by unseen. The
    sessions still get their lists after their responses."""

    async def scenario(agent: AgentProcess) -> None:
        await agent.initialize(protocol_version=2)
        for _ in range(2):
            await agent.new_session()

    agent, log = asyncio.run(run(folder, "vendored", "late-bind", scenario))
    for sid in ("s-1", "s-2"):
        assert timeline(agent.frames, sid) == ["session/new", [OWN["session/new"], SKILL]]
    assert log == []


# -- the same on a connection built like AgentPool's fork, without a transport (fast) --


def test_requests_read_before_bind_are_counted_and_their_lists_follow_their_responses(
    folder: Path, fork_acp: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Bound while the SDK runs three request handlers it never saw start
    (initialize, a session/new and a session/load the client sent before the initialize
    answer): each list waits for the response naming its session, or for the last of the
    three responses; the load result, which names nothing, is said once."""
    import importlib.util
    import logging
    import types

    ForkConnection, ForkAgentSideConnection = fork_acp
    spec = importlib.util.spec_from_file_location("acp_command_advertiser", folder / VENDORED_FILE)
    vendored = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(vendored)

    async def scenario() -> ForkConnection:
        conn = ForkConnection()
        blocked = asyncio.Event()
        handlers = {asyncio.create_task(blocked.wait(), name="acp.Connection.request") for _ in range(3)}
        conn._tasks = types.SimpleNamespace(_tasks=handlers)  # the SDK's TaskSupervisor
        vendored.CommandAdvertiser().bind(ForkAgentSideConnection(conn)).advertise([SKILL])
        for sid, commands in (("n-1", [OWN["session/new"]]), ("old", [OWN["session/load"]])):
            update = {"sessionUpdate": "available_commands_update", "availableCommands": commands}
            await conn.send_notification("session/update", {"sessionId": sid, "update": update})
        assert conn.written == []  # held: their requests are not answered
        await conn.respond(0, {"protocolVersion": 1})
        await conn.respond(2, {})  # the load: names no session, and one request is left
        await conn.respond(1, {"sessionId": "n-1"})  # the new, the last of them
        blocked.set()
        await asyncio.gather(*conn.tasks, *handlers)
        return conn

    with caplog.at_level(logging.WARNING):
        conn = asyncio.run(scenario())
    assert [m.get("id", m.get("params", {}).get("sessionId")) for m in conn.written] == [0, 2, 1, "n-1", "old"]
    assert [c for _, c in conn.commands_updates()] == [[OWN["session/new"], SKILL], [OWN["session/load"], SKILL]]
    assert len([r for r in caplog.records if UNATTRIBUTED in r.getMessage()]) == 1
