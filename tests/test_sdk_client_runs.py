"""Run the clients the SDK rules rewrite: SDK 0.6 clients moved to 1.0 by `fix`, started on
1.0 against an agent that asks them everything a client answers
(tests/support/asking_agent.py, over stdio), showing which of their handlers the SDK
calls. Before the move their camelCase handlers are never called on 1.0, silently: the
router finds the `acp.Client` protocol's stubs, answers `null` and drops the session
updates."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from support.sdk_venv import sdk_env, sdk_python

from acp_migrate.api import fix_paths

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "golden"
AGENT = REPO / "tests" / "support" / "asking_agent.py"
TARGET = "1.0.0rc3"  # 1.0 on the package index (`--pre`)
HANG_GUARD = 120  # seconds; a guard against a hung client, never a measure

# The SDK's own examples/client.py of 0.6.3 and of 0.5.0 (0.4.9's is the same).
EXAMPLES = [GOLDEN / "move-0-7-example-client-sdk-0-6-3", GOLDEN / "move-0-7-example-client-sdk-0-5-0"]
ANSWERING = GOLDEN / "move-0-7-client-handlers-answer"
ASKED = (
    "session/request_permission",
    "fs/write_text_file",
    "fs/read_text_file",
    "terminal/create",
    "terminal/output",
    "terminal/release",
    "terminal/wait_for_exit",
    "terminal/kill",
)


def run_client(client: Path, record: Path, console: str = "", migrated: bool = True) -> tuple[str, dict[str, Any]]:
    """`client` run on the target against the asking agent (`console`: its standard
    input; `migrated`: with what 1.0 deprecates an error); its standard output, and what
    the agent's requests got back."""
    strict = ["-W", "error::DeprecationWarning"] if migrated else []
    done = subprocess.run(
        [str(sdk_python(TARGET)), *strict, str(client), str(AGENT), str(record)],
        input=console,
        capture_output=True,
        text=True,
        cwd=client.parent,
        env=sdk_env(),
        timeout=HANG_GUARD,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads(record.read_text())


def handlers_left_camel_case(case: Path, into: Path) -> Path:
    """The case's input moved by `fix` with every rule but ACP221: it imports and
    connects on 1.0, its handlers as 0.6 wrote them."""
    shutil.copytree(case / "input", into)
    fix_paths([into], ignore=["ACP221"])
    source = (into / "client.py").read_text()
    assert "async def requestPermission(self, params" in source and "connect_to_agent(" in source
    return into / "client.py"


@pytest.mark.parametrize("example", EXAMPLES, ids=[case.name for case in EXAMPLES])
def test_the_sdk_s_example_client_moved_by_fix_has_its_handlers_called_on_1_0(example: Path, tmp_path: Path) -> None:
    shown, answers = run_client(example / "expected" / "client.py", tmp_path / "record.json", console="hi\n")
    assert "| Agent: asked\n" in shown  # its session_update printed the agent's chunk (after the "> " prompt)
    # Each request is refused by the example's own handler, naming the method it refuses.
    assert answers == {method: {"error": -32601, "data": {"method": method}} for method in ASKED}


@pytest.mark.parametrize("example", EXAMPLES, ids=[case.name for case in EXAMPLES])
def test_the_sdk_s_example_client_s_camel_case_handlers_are_never_called_on_1_0(example: Path, tmp_path: Path) -> None:
    client = handlers_left_camel_case(example, tmp_path / "client")
    shown, answers = run_client(client, tmp_path / "record.json", console="hi\n", migrated=False)
    assert "| Agent:" not in shown
    # The protocol's stubs answer instead: `null`, which a request expecting a result fails on.
    assert answers["session/request_permission"] == {"raised": "ValidationError"}
    assert not any(answer.get("error") == -32601 for answer in answers.values())


def test_every_move_case_of_an_example_client_runs() -> None:
    assert sorted(EXAMPLES) == sorted(GOLDEN.glob("move-*example-client*"))


def test_a_client_moved_by_fix_answers_from_the_keyword_arguments_it_is_given(tmp_path: Path) -> None:
    shown, answers = run_client(ANSWERING / "expected" / "client.py", tmp_path / "record.json")
    assert shown.splitlines() == ["update of asked-session: asked", "wrote /tmp/x: x"]
    selected = answers["session/request_permission"]["result"]["outcome"]
    assert (selected["outcome"], selected["optionId"]) == ("selected", "yes")  # the first option it was given
    assert answers["fs/read_text_file"] == {"result": {"content": "/tmp/x of asked-session", "_meta": None}}


def test_the_same_client_as_0_6_wrote_it_is_never_asked_on_1_0(tmp_path: Path) -> None:
    # The input itself still imports and connects on 1.0 (with deprecation warnings).
    shown, answers = run_client(ANSWERING / "input" / "client.py", tmp_path / "record.json", migrated=False)
    assert shown == ""
    assert answers["session/request_permission"] == {"raised": "ValidationError"}
    assert answers["fs/read_text_file"] == {"raised": "ValidationError"}
