"""End to end: migrate the bundled legacy agent with the command, then talk to both
agents over stdio with the official SDK client and compare what a client sees.

Proves the migration keeps every command: each new, loaded, resumed and forked session
gets the list the legacy agent advertised at initialize, merged after the session's own
list where it sends one (a new session's `/help`), never before its setup response, and
initialize no longer carries commands.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path

import pytest
from support.acp_stdio import FROM_AGENT, TO_AGENT, AgentProcess
from support.command import run_acp_migrate

pytestmark = pytest.mark.slow  # the command, then the example agents over stdio

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "legacy_agent"
SETUP_METHODS = ("session/new", "session/load", "session/resume", "session/fork")


def migrate(copy: Path) -> subprocess.CompletedProcess[bytes]:
    return run_acp_migrate("fix", copy)


async def legacy_commands(workdir: Path) -> list[dict]:
    async with AgentProcess(EXAMPLE / "agent.py", cwd=workdir) as agent:
        await agent.initialize()
        return agent.result("initialize")["agentCapabilities"]["slashCommands"]


def commands_seen(frames: list, request_at: int, session_id: str) -> list[dict]:
    """The list a client holds for `session_id` after the setup request at `request_at`:
    the setup result's `availableCommands`, replaced by each later update for the
    session. Asserts that no update for the session comes before the response."""
    request_id = frames[request_at][1]["id"]
    response_at = next(
        i
        for i, (d, m) in enumerate(frames)
        if i > request_at and d == FROM_AGENT and m.get("id") == request_id and "method" not in m
    )
    commands = frames[response_at][1]["result"].get("availableCommands", [])
    for index, (direction, message) in enumerate(frames[request_at:], start=request_at):
        if direction != FROM_AGENT or message.get("method") != "session/update":
            continue
        params = message["params"]
        update = params["update"]
        if params["sessionId"] != session_id or update["sessionUpdate"] != "available_commands_update":
            continue
        assert index > response_at, f"commands for {session_id} overtook the setup response"
        commands = update["availableCommands"]
    return commands


async def drive_migrated(agent_path: Path, workdir: Path) -> dict[str, list[dict]]:
    """Set up one session of each kind (distinct ids) and return what the client saw."""
    seen: dict[str, list[dict]] = {}
    async with AgentProcess(agent_path, cwd=workdir) as agent:
        await agent.initialize()
        assert "slashCommands" not in agent.result("initialize")["agentCapabilities"]

        new_id = await agent.new_session()
        await agent.load_session("stored-session")
        await agent.resume_session("paused-session")
        forked = await agent.fork_session(new_id)
        for session_id in (new_id, "stored-session", "paused-session", forked):
            await agent.wait_for_commands(session_id)
        await agent.drain()  # every late notification read

        frames = agent.frames
        for request_at, (direction, request) in enumerate(frames):
            method = request.get("method")
            if direction != TO_AGENT or method not in SETUP_METHODS:
                continue
            if method in ("session/load", "session/resume"):
                session_id = request["params"]["sessionId"]
            else:
                response = next(m for d, m in frames if d == FROM_AGENT and m.get("id") == request["id"])
                session_id = response["result"]["sessionId"]
            seen[method] = commands_seen(frames, request_at, session_id)
    assert agent.returncode == 0, agent.stderr
    return seen


def test_migrated_example_advertises_every_command_per_session(tmp_path: Path) -> None:
    original = asyncio.run(legacy_commands(tmp_path))
    assert len(original) >= 3

    copy = tmp_path / "legacy_agent"
    # The example's own tests/ are migrated too (ACP008: fix names the tests it removes and
    # exits 1): tests/test_e2e_example_tests.py runs them; here the agent alone.
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("__pycache__", "tests"))
    first = migrate(copy)
    assert first.returncode == 0, first.stdout.decode() + first.stderr.decode()
    migrated = {p.name: p.read_bytes() for p in copy.glob("*.py")}
    assert b"slash_commands" not in b"".join(migrated.values())

    seen = asyncio.run(drive_migrated(copy / "agent.py", tmp_path))
    own = [{"name": "help", "description": "Show what this agent can do"}]
    assert seen == {method: (own if method == "session/new" else []) + original for method in SETUP_METHODS}

    # A second fix changes nothing, and the lint is clean.
    second = migrate(copy)
    assert second.returncode == 0, second.stdout.decode()
    assert {p.name: p.read_bytes() for p in copy.glob("*.py")} == migrated
    check = run_acp_migrate("check", copy)
    assert check.returncode == 0, check.stdout.decode()
