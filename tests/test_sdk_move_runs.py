"""Run what the SDK rules rewrite: golden agents, before and after `fix`, started over
stdio and driven by a real client of the release (tests/support/keyword_sdk_client.py:
initialize, session/new, a prompt), on the release the code was written for and on the
target. The wire is read as the client received it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from support.sdk_venv import sdk_python

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "golden"
CLIENT = REPO / "tests" / "support" / "keyword_sdk_client.py"
TARGET = "1.0.0rc3"  # 1.0 on the package index (`--pre`)
HANG_GUARD = 60  # seconds; a guard against a hung agent, never a measure


def drive(version: str, script: Path, text: str = "hello") -> dict[str, Any]:
    spec = {"script": str(script), "cwd": str(script.parent), "text": text, "timeout": HANG_GUARD}
    done = subprocess.run(
        [str(sdk_python(version)), str(CLIENT), json.dumps(spec)],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD * 4,
        check=False,
    )
    assert done.stdout, done.stderr
    return json.loads(done.stdout)


def agent_requests(run: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The requests the agent sent the client, in order: (method, params)."""
    return [
        (message["method"], message.get("params", {}))
        for direction, message in run["frames"]
        if direction == "agent->client" and "method" in message and "id" in message
    ]


POSITIONAL = GOLDEN / "sdk-0-11-positional-calls-agent"


def _positional_calls_arrive_whole(run: dict[str, Any]) -> None:
    assert run["failure"] is None, run["failure"]
    sid = run["session_id"]
    requests = agent_requests(run)
    assert [method for method, _ in requests] == [
        "session/request_permission",
        "fs/write_text_file",
        "fs/read_text_file",
        "fs/write_text_file",
    ]
    permission, write, read, copy = (params for _, params in requests)
    assert permission["sessionId"] == sid and permission["options"][0]["optionId"] == "yes"
    assert permission["toolCall"]["toolCallId"] == "write-1"
    assert write == {"sessionId": sid, "path": "/tmp/notes.txt", "content": "hello"}
    assert read == {"sessionId": sid, "path": "/tmp/notes.txt", "limit": 10, "line": 1}
    assert copy == {"sessionId": sid, "path": "/tmp/copy.txt", "content": "read by the client"}


@pytest.mark.parametrize("version", ["0.8.0", TARGET])
def test_positional_calls_passed_by_keyword_mean_the_same_on_both_releases(version: str) -> None:
    _positional_calls_arrive_whole(drive(version, POSITIONAL / "expected" / "agent.py"))


def test_positional_calls_as_written_mean_the_same_on_the_release_they_were_written_for() -> None:
    # The input as its authors ran it (on 1.0 its prompt is never answered: the options
    # list goes out as the session id and the agent's request fails to validate).
    _positional_calls_arrive_whole(drive("0.8.0", POSITIONAL / "input" / "agent.py"))
