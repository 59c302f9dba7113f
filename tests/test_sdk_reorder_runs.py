"""Run what ACP220 rewrites in a client: each case's client calls a real agent of the
release (support/recording_agent.py), which records what each handler received.
Migrated, the calls arrive whole on the target and on the release the code was written
for; as written they arrive whole on the latter only, and on the target some land in
other parameters, silently, until one fails to validate (the negative control).

- golden/move-0-10-client-positional-calls: written for 0.7.0, its requirement
  admitting up to 0.10 (0.8's and 0.10's reorders, none of 0.11's): on 0.10.1 the MCP
  servers go out as additional directories, the cwd as `list_sessions`' cursor, and
  `load_session`'s servers as its session id.
- golden/move-0-11-client-positional-calls: written for 0.8.0, moved to 1.0: the
  session's id goes out as the mode's, the mode's as the session's.

The agent's `load_session` takes its parameters in 0.7's order on every release:
handlers are called by keyword."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from support.sdk_venv import sdk_env, sdk_python

pytestmark = pytest.mark.slow  # virtualenvs of several SDK releases, agents started

REPO = Path(__file__).resolve().parents[1]
AGENT = REPO / "tests" / "support" / "recording_agent.py"
STORED = "stored-1"  # the session the clients load
NEW = "new-1"  # the session the agent makes
HANG_GUARD = 120  # seconds; a guard against a hung agent, never a measure
# A case's client, on the release's interpreter, calling the recording agent.
DRIVE = """
import asyncio, os, sys
import client

class Client:
    async def session_update(self, **kwargs):
        return None

asyncio.run(getattr(client, sys.argv[1])(Client(), sys.argv[2], os.getcwd(), sys.argv[3]))
"""
Arrivals = list[list[Any]]


@dataclass(frozen=True)
class Case:
    name: str
    function: str  # of its client.py: (client, agent script, cwd, stored session id)
    written_for: str
    target: str
    whole: Callable[[str], Arrivals]  # what arrives, given the cwd, where the calls mean what they say
    as_written_on_target: Callable[[str], Arrivals]
    failure: str  # what stops the unmigrated client on the target


CASES = (
    Case(
        "move-0-10-client-positional-calls",
        "reopen",
        "0.7.0",
        "0.10.1",
        lambda cwd: [
            ["new_session", {"cwd": cwd, "mcp_servers": []}],
            ["list_sessions", {"cwd": cwd}],
            ["load_session", {"cwd": cwd, "mcp_servers": [], "session_id": STORED}],
            ["prompt", {"prompt": [{"type": "text", "text": "hi"}], "session_id": STORED}],
        ],
        lambda cwd: [
            ["new_session", {"cwd": cwd, "additional_directories": [], "mcp_servers": []}],
            ["list_sessions", {"cursor": cwd}],  # silently: the cwd is the cursor
        ],
        "ValidationError",  # load_session's session id: a list
    ),
    Case(
        "move-0-11-client-positional-calls",
        "ask",
        "0.8.0",
        "1.0.0rc3",  # 1.0 on the index
        lambda cwd: [
            ["new_session", {"cwd": cwd, "mcp_servers": []}],
            ["load_session", {"cwd": cwd, "mcp_servers": [], "session_id": STORED}],
            ["set_session_mode", {"mode_id": "code", "session_id": NEW}],
            ["prompt", {"prompt": [{"type": "text", "text": "hi"}], "session_id": NEW}],
        ],
        lambda cwd: [
            ["new_session", {"cwd": cwd, "additional_directories": [], "mcp_servers": []}],
            ["load_session", {"cwd": cwd, "mcp_servers": [], "session_id": STORED}],
            ["set_session_mode", {"mode_id": NEW, "session_id": "code"}],  # silently swapped
        ],
        "TypeError",  # prompt's session id: a list
    ),
)
RUNS = [
    (case, tree, version)
    for case in CASES
    for tree, version in (("expected", case.target), ("expected", case.written_for), ("input", case.written_for))
]


def _call(
    case: Case, tree: str, version: str, tmp_path: Path
) -> tuple[Arrivals, subprocess.CompletedProcess[str], str]:
    """What the agent's handlers received when the case's `tree` (input or expected)
    ran on `version`, how the client ended, and its cwd."""
    folder = tmp_path / tree
    shutil.copytree(REPO / "golden" / case.name / tree, folder)
    done = subprocess.run(
        [str(sdk_python(version)), "-c", DRIVE, case.function, str(AGENT), STORED],
        cwd=folder,
        env=sdk_env(PYTHONPATH=str(folder)),
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        check=False,
    )
    arrived = folder / "arrived.jsonl"
    lines = arrived.read_text(encoding="utf-8").splitlines() if arrived.exists() else []
    return [json.loads(line) for line in lines], done, str(folder)


@pytest.mark.parametrize(("case", "tree", "version"), RUNS, ids=[f"{c.name}-{t}-{v}" for c, t, v in RUNS])
def test_the_calls_arrive_whole(case: Case, tree: str, version: str, tmp_path: Path) -> None:
    arrived, done, cwd = _call(case, tree, version, tmp_path)
    assert done.returncode == 0, done.stderr
    assert arrived == case.whole(cwd)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_the_calls_as_written_land_in_other_parameters_on_the_target(case: Case, tmp_path: Path) -> None:
    arrived, done, cwd = _call(case, "input", case.target, tmp_path)
    assert arrived == case.as_written_on_target(cwd)
    assert done.returncode == 1 and case.failure in done.stderr, done.stderr
