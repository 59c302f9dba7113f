"""End to end on SDK 0.6.3: the AgentPool-shaped example before and after `acp-migrate fix`.

examples/agentpool_shape is AgentPool's server before RFC-0032 on the official SDK
0.6.3: a dataclass agent made by a factory around the connection, camelCase
request-object handlers, the skill commands advertised at ``initialize`` through
an owned schema, and a session class in another module that sends its own,
different list from a background task after new, load and resume (not fork).

Every agent here runs on SDK 0.6.3's interpreter and is driven over stdio in raw
JSON-RPC, so the assertions are on the frames as written. 0.6.3 routes neither
``session/resume`` nor ``session/fork``: those run through
``support/acp_raw.py serve-with-unstable-routes``, the example's own ``main()``
on a 0.6.3 connection subclass that routes both through the SDK's request path.

Before the migration the client sees the legacy behaviour; after it, no commands
at ``initialize``, and every session ends with its own list followed by the moved
commands it lacks by name, none of them before the session's setup response.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from support import acp_raw
from support.acp_raw import FROM_AGENT, TO_AGENT, Frame, RawAgent
from support.command import run_acp_migrate
from support.sdk_venv import sdk_env, sdk_python

pytestmark = pytest.mark.slow  # the command, then agents on the SDK 0.6.3 virtualenv

SDK = "0.6.3"
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "agentpool_shape"
SETUP_METHODS = ("session/new", "session/load", "session/resume", "session/fork")
UNKNOWN_SESSION = "never-stored-session"  # load's error path: an empty response
PAUSED_SESSION = "paused-session"  # resumed without having been opened here
EXPECTED_METHODS = ("session/new", "session/load", "session/load", "session/new", "session/resume", "session/fork")


@pytest.fixture(scope="module")
def python() -> Path:
    return sdk_python(SDK)


# -- what a client sees --------------------------------------------------------------


def response_index(frames: list[Frame], request_at: int) -> int:
    request_id = frames[request_at][1]["id"]
    return next(
        i
        for i, (direction, message) in enumerate(frames)
        if i > request_at and direction == FROM_AGENT and "method" not in message and message.get("id") == request_id
    )


def commands_seen(frames: list[Frame], request_at: int) -> tuple[str, list[dict[str, Any]], bool]:
    """For the setup request at `request_at`: the session it set up, the list the client
    ends with for it (the result's `availableCommands`, replaced by every later
    `available_commands_update` for the session, up to the next load or resume of it),
    and whether any such update came before the setup response."""
    method = frames[request_at][1]["method"]
    response_at = response_index(frames, request_at)
    response = frames[response_at][1]
    assert "error" not in response, f"{method} failed: {response['error']}"
    result = response["result"] or {}
    if method in ("session/load", "session/resume"):
        session_id = frames[request_at][1]["params"]["sessionId"]
    else:
        session_id = result["sessionId"]
    commands = result.get("availableCommands", [])
    early = False
    for index, (direction, message) in enumerate(frames[request_at + 1 :], start=request_at + 1):
        if direction == TO_AGENT and message.get("method") in SETUP_METHODS:
            if (message.get("params") or {}).get("sessionId") == session_id and message["method"] != "session/fork":
                break  # set up again: what follows belongs to that request
            continue
        if direction != FROM_AGENT or message.get("method") != "session/update":
            continue
        params = message["params"]
        if params["sessionId"] != session_id or params["update"]["sessionUpdate"] != "available_commands_update":
            continue
        early = early or index < response_at
        commands = params["update"]["availableCommands"]
    return session_id, commands, early


@dataclass(frozen=True)
class Setup:
    method: str
    session_id: str
    commands: list[dict[str, Any]]  # what the client ends with
    early: bool  # commands came before the setup response


def setups(frames: list[Frame]) -> list[Setup]:
    """Every setup request, in order."""
    return [
        Setup(message["method"], *commands_seen(frames, index))
        for index, (direction, message) in enumerate(frames)
        if direction == TO_AGENT and message.get("method") in SETUP_METHODS
    ]


def names(commands: list[dict[str, Any]]) -> list[str]:
    return [command["name"] for command in commands]


def merged(own: list[dict[str, Any]], moved: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The session's own list in order, then the moved commands it lacks by name."""
    have = set(names(own))
    return [*own, *(command for command in moved if command["name"] not in have)]


def keys_anywhere(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {key for item in value.values() for key in keys_anywhere(item)}
    if isinstance(value, list):
        return {key for item in value for key in keys_anywhere(item)}
    return set()


# -- driving the example -----------------------------------------------------------------


async def call(agent: RawAgent, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """A request's result; an error response fails the test."""
    response = await agent.request(method, params)
    assert "error" not in response, f"{method} failed: {response['error']}"
    return response["result"] or {}


async def initialize(agent: RawAgent) -> dict[str, Any]:
    capabilities = {"fs": {"readTextFile": False, "writeTextFile": False}}
    return await call(agent, "initialize", {"protocolVersion": 1, "clientCapabilities": capabilities})


async def setup(agent: RawAgent, method: str, params: dict[str, Any], wait: bool) -> str:
    """A setup request; with `wait`, also wait for the session's first commands update
    (sent on its own, with no later request to prompt it). Returns the session id."""
    start = len(agent.frames)
    result = await call(agent, method, params)
    session_id = params["sessionId"] if method in ("session/load", "session/resume") else result["sessionId"]
    if wait:

        def arrived(frames: list[Frame]) -> bool:
            return any(
                direction == FROM_AGENT
                and message.get("method") == "session/update"
                and message["params"]["sessionId"] == session_id
                and message["params"]["update"]["sessionUpdate"] == "available_commands_update"
                for direction, message in frames[start:]
            )

        await agent.wait_for(arrived, f"commands for {session_id} after {method}")
    return session_id


async def fence(agent: RawAgent, session_id: str) -> None:
    """One more round trip after the setups: what their handlers scheduled has run by
    the time the agent answers a request sent after their responses arrived."""
    prompt = [{"type": "text", "text": "/help"}]
    assert await call(agent, "session/prompt", {"sessionId": session_id, "prompt": prompt}) == {"stopReason": "end_turn"}


async def run_new_and_load(
    python: Path, agent_script: Path, workdir: Path, waits: tuple[bool, ...]
) -> tuple[dict[str, Any], RawAgent]:
    """The example's own main() on SDK 0.6.3: new, prompt, load it, load an unknown id."""
    cwd = str(workdir)
    env = sdk_env(PYTHONDONTWRITEBYTECODE="1")
    async with RawAgent([python, agent_script], cwd=workdir, env=env) as agent:
        init = await initialize(agent)
        session_id = await setup(agent, "session/new", {"cwd": cwd, "mcpServers": []}, waits[0])
        await call(agent, "session/prompt", {"sessionId": session_id, "prompt": [{"type": "text", "text": "hi"}]})
        await setup(agent, "session/load", {"cwd": cwd, "mcpServers": [], "sessionId": session_id}, waits[1])
        await setup(agent, "session/load", {"cwd": cwd, "mcpServers": [], "sessionId": UNKNOWN_SESSION}, waits[2])
        await fence(agent, session_id)
    return init, agent


async def run_resume_and_fork(python: Path, agent_script: Path, workdir: Path, waits: tuple[bool, ...]) -> RawAgent:
    """The same main() with resume and fork routed: new, resume an unknown id, fork the new one."""
    cwd = str(workdir)
    env = sdk_env(PYTHONDONTWRITEBYTECODE="1")
    argv = [python, acp_raw.__file__, acp_raw.SERVE_WITH_UNSTABLE_ROUTES, agent_script]
    async with RawAgent(argv, cwd=workdir, env=env) as agent:
        await initialize(agent)
        session_id = await setup(agent, "session/new", {"cwd": cwd, "mcpServers": []}, waits[0])
        await setup(agent, "session/resume", {"cwd": cwd, "mcpServers": [], "sessionId": PAUSED_SESSION}, waits[1])
        await setup(agent, "session/fork", {"cwd": cwd, "mcpServers": [], "sessionId": session_id}, waits[2])
        await fence(agent, session_id)
    return agent


def observe(
    python: Path, agent_script: Path, workdir: Path, waits: tuple[bool, ...]
) -> tuple[dict[str, Any], list[Setup]]:
    """initialize's result and each setup, in order: new, load of it, load of an unknown
    id (the example's main); then new, resume of an unknown id, fork of the new one
    (with resume and fork routed). `waits` says, per setup, whether a commands update
    is to be waited for."""
    init, plain = asyncio.run(run_new_and_load(python, agent_script, workdir, waits[:3]))
    routed = asyncio.run(run_resume_and_fork(python, agent_script, workdir, waits[3:]))
    for agent in (plain, routed):
        assert "Traceback" not in agent.stderr, agent.stderr
    found = setups(plain.frames) + setups(routed.frames)
    assert [setup.method for setup in found] == [*EXPECTED_METHODS], found
    return init, found


def migrate(folder: Path) -> subprocess.CompletedProcess[str]:
    return run_acp_migrate("fix", folder, text=True)


def sources(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


# -- the test ------------------------------------------------------------------------------


def test_agentpool_shape_on_sdk_0_6_3_before_and_after_fix(python: Path, tmp_path: Path) -> None:
    workdir = tmp_path / "work"
    workdir.mkdir()

    # Before: the legacy behaviour, as AgentPool showed it.
    # (No commands are waited for after the load of an unknown id and the fork: none come.)
    init, legacy = observe(python, EXAMPLE / "agent.py", workdir, (True, True, False, True, True, False))
    moved = init["agentCapabilities"]["slashCommands"]
    assert names(moved) == ["web", "review"]
    new, load, unknown_load, new_routed, resume, fork = legacy
    assert load.session_id == new.session_id and unknown_load.session_id == UNKNOWN_SESSION
    assert resume.session_id == PAUSED_SESSION and fork.session_id not in (new.session_id, new_routed.session_id)
    # Sessions get only their own list, not initialize's (one name shared, described
    # differently); the load error path and fork get nothing.
    for setup in (new, load, new_routed, resume):
        assert names(setup.commands) == ["help", "web"], setup
    assert unknown_load.commands == [] and fork.commands == []
    assert next(c for c in moved if c["name"] == "web") != next(c for c in new.commands if c["name"] == "web")
    # The load schedules its update before replaying the conversation: it overtakes the response.
    assert [setup.early for setup in legacy] == [False, True, False, False, False, False]

    # The migration: exit 0, and a second run changes nothing.
    copy = tmp_path / "agentpool_shape"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    original = sources(copy)
    first = migrate(copy)
    assert first.returncode == 0, first.stdout + first.stderr
    migrated = sources(copy)
    assert migrated != original
    second = migrate(copy)
    assert second.returncode == 0, second.stdout + second.stderr
    assert sources(copy) == migrated

    # After: nothing at initialize; every session ends with its own list (what the legacy
    # agent sent it), then the moved commands it lacks, none before its setup response.
    init_after, after = observe(python, copy / "agent.py", workdir, (True,) * len(EXPECTED_METHODS))
    assert not keys_anywhere(init_after) & {"slashCommands", "slash_commands", "availableCommands"}, init_after
    expected = [(setup.method, merged(setup.commands, moved)) for setup in legacy]
    assert [(setup.method, setup.commands) for setup in after] == expected
    assert [setup for setup in after if setup.early] == []
    assert names(merged(new.commands, moved)) == ["help", "web", "review"]  # the session's own web wins
    assert names(merged(fork.commands, moved)) == ["web", "review"]
    for setup in after:
        assert len(set(names(setup.commands))) == len(setup.commands), setup
