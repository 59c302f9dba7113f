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
from support.golden_tree import expected_tree
from support.sdk_venv import sdk_env, sdk_python

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "golden"
CLIENT = REPO / "tests" / "support" / "keyword_sdk_client.py"
TARGET = "1.0.0rc3"  # 1.0 on the package index (`--pre`)
HANG_GUARD = 60  # seconds; a guard against a hung agent, never a measure


def drive(
    version: str,
    script: Path,
    text: str | None = "hello",
    *arguments: str,
    awaits: str = "",
    python_options: tuple[str, ...] = (),
    prompt_session: str | None = None,
) -> dict[str, Any]:
    """`script` (with its `arguments`) served on `version`, in its folder, and driven
    (`awaits`: a kind of session update to wait for after session/new; `python_options`:
    the interpreter's own, before the script; `prompt_session`: the session the prompt
    names, where not the one session/new made)."""
    argv = [*python_options, str(script), *arguments]
    spec = {"argv": argv, "cwd": str(script.parent), "text": text, "timeout": HANG_GUARD}
    spec["await_update"] = awaits
    spec["prompt_session"] = prompt_session
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


POSITIONAL = GOLDEN / "move-0-11-positional-calls-agent"


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


def answer_to(run: dict[str, Any], method: str) -> dict[str, Any]:
    """The agent's response to the client's first `method` request."""
    asked = next(m["id"] for d, m in run["frames"] if d == "client->agent" and m.get("method") == method)
    return next(m for d, m in run["frames"] if d == "agent->client" and m.get("id") == asked and "method" not in m)


def echoed(run: dict[str, Any]) -> list[str]:
    """The text of the agent's message chunks to the session, in order."""
    return [
        message["params"]["update"]["content"]["text"]
        for direction, message in run["frames"]
        if direction == "agent->client"
        and message.get("method") == "session/update"
        and message["params"]["sessionId"] == run["session_id"]
        and message["params"]["update"].get("sessionUpdate") == "agent_message_chunk"
    ]


ECHO_0_6_3 = GOLDEN / "move-0-7-echo-agent-sdk-0-6-3"


def test_the_sdk_0_6_3_echo_agent_answers_session_new_with_null_on_0_12_1() -> None:
    # The silent break ACP221 moves: newSession is never reached on a subclass of acp.Agent.
    run = drive("0.12.1", ECHO_0_6_3 / "input" / "agent.py")
    assert answer_to(run, "session/new") == {"jsonrpc": "2.0", "id": 1, "result": None}
    assert run["session_id"] is None


# The SDK's own examples of the releases before 0.7 (0.7's are 0.8.1's; from 0.7 on:
# test_sdk_runs' sdk-example-* cases), moved to 1.0 by `fix`: case -> the texts the agent
# sends back for a prompt. Each runs on the target and on 0.12.1, not on the release it was
# written for: the migrated handlers take keywords, which the SDK calls from 0.7 on.
ECHO = ["hello echo"]
SDK_EXAMPLES = {
    "move-sdk-0-4-9-echo-agent": ECHO,
    "move-sdk-0-5-0-echo-agent": ECHO,
    "move-sdk-0-5-0-example-agent": ["Client sent:", "hello echo"],  # examples/agent.py
    "move-0-7-echo-agent-sdk-0-6-3": ECHO,
}
EXAMPLE_RUNS = [(case, version) for case in SDK_EXAMPLES for version in (TARGET, "0.12.1")]


@pytest.mark.parametrize(("case", "version"), EXAMPLE_RUNS, ids=[f"{c}-{v}" for c, v in EXAMPLE_RUNS])
def test_the_sdk_s_example_moved_by_fix_serves_a_prompt(case: str, version: str) -> None:
    run = drive(version, GOLDEN / case / "expected" / "agent.py", text="hello echo")
    assert run["failure"] is None, run["failure"]
    assert run["session_id"] and answer_to(run, "session/new")["result"]["sessionId"] == run["session_id"]
    assert echoed(run) == SDK_EXAMPLES[case]


@pytest.mark.parametrize("case", SDK_EXAMPLES)
def test_the_sdk_s_example_as_written_fails_at_import_on_the_target(case: str) -> None:
    imported = subprocess.run(
        [str(sdk_python(TARGET)), "-c", "import agent"],
        cwd=GOLDEN / case / "input",
        env={**sdk_env(), "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert imported.returncode == 1 and "ImportError" in imported.stderr, imported.stderr


# What fix makes of them uses nothing the target deprecates: the camelCase call with a
# request model, `from acp import AgentSideConnection` (both warn on 1.0; here they fail).
# Not 0.6.3's: its request model, built earlier and given `field_meta`, is passed by name
# to `sessionUpdate`, which ACP223 leaves (it still runs on 1.0).
CURRENT_API = ("move-sdk-0-4-9-echo-agent", "move-sdk-0-5-0-echo-agent", "move-sdk-0-5-0-example-agent")


@pytest.mark.parametrize("case", CURRENT_API)
def test_the_sdk_s_example_moved_by_fix_uses_nothing_the_target_deprecates(case: str) -> None:
    script = GOLDEN / case / "expected" / "agent.py"
    run = drive(TARGET, script, "hello echo", python_options=("-W", "error::DeprecationWarning"))
    assert run["failure"] is None, run["failure"]
    assert echoed(run) == SDK_EXAMPLES[case]


def test_every_move_case_of_an_sdk_example_runs() -> None:
    cases = {*GOLDEN.glob("move-sdk-*"), *GOLDEN.glob("move-*echo-agent*")}
    assert sorted(SDK_EXAMPLES) == sorted(p.name for p in cases)


SLASH_COMMANDS = GOLDEN / "vendored-sdk-0-6-3-moved-to-1-0"
LAUNCHER = REPO / "tests" / "support" / "serve_golden.py"


def test_an_sdk_0_6_3_agent_advertising_commands_at_initialize_moved_to_1_0_by_one_fix(tmp_path: Path) -> None:
    # Both moves in one run: the list goes to the session (the shim), the handlers take keywords.
    folder = expected_tree(SLASH_COMMANDS, tmp_path / "agent")
    run = drive(TARGET, LAUNCHER, None, str(folder), "agent", "OldSdkAgent()", awaits="available_commands_update")
    assert run["failure"] is None, run["failure"]
    assert "slashCommands" not in json.dumps(answer_to(run, "initialize")["result"])
    updates = [
        message["params"]["update"]
        for direction, message in run["frames"]
        if direction == "agent->client"
        and message.get("method") == "session/update"
        and message["params"]["sessionId"] == run["session_id"]
    ]
    commands = [u["availableCommands"] for u in updates if u["sessionUpdate"] == "available_commands_update"]
    assert [[command["name"] for command in listed] for listed in commands] == [["web"]]


def test_kimi_cli_1_52_0_asks_permission_by_keyword_after_fix(tmp_path: Path) -> None:
    # Its own code from the package index (sdk1's fixture downloads the wheel once).
    import ast
    import zipfile

    from test_sdk_real_agents import _fix, _kimi_wheel, _project

    with zipfile.ZipFile(_kimi_wheel()) as wheel:
        wheel.extractall(tmp_path / "wheel", [n for n in wheel.namelist() if n.startswith("kimi_cli/acp/")])
    project = _project(tmp_path / "kimi", tmp_path / "wheel" / "kimi_cli" / "acp", "agent-client-protocol==0.8.0")
    before = (project / "acp" / "session.py").read_text()
    _fix(project)
    after = (project / "acp" / "session.py").read_text()

    def permission_keywords(source: str) -> list[list[str | None]]:
        return [
            [keyword.arg for keyword in node.keywords] + [None] * len(node.args)
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "request_permission"
        ]

    assert permission_keywords(before) == [[None, None, None]]  # options, session_id, tool_call by position
    assert permission_keywords(after) == [["options", "session_id", "tool_call"]]


def test_a_validator_of_a_0_6_field_name_fails_at_import_on_1_0_and_imports_after_fix(tmp_path: Path) -> None:
    from acp_migrate.rules.acp224_sdk_fields import SdkValidatorField

    example = SdkValidatorField.examples[0]
    imported = {}
    for name, source in (("before", example.before), ("after", example.after)):
        (tmp_path / f"{name}.py").write_text(source)
        run = subprocess.run(
            [str(sdk_python(TARGET)), "-c", f"import {name}"], cwd=tmp_path, capture_output=True, text=True, check=False
        )
        imported[name] = (run.returncode, "Decorators defined with incorrect fields" in run.stderr)
    assert imported == {"before": (1, True), "after": (0, False)}


def test_a_model_dump_keeps_its_keys_from_0_6_to_1_0_after_fix(tmp_path: Path) -> None:
    from acp_migrate.rules.acp224_sdk_fields import SdkValidatorField

    example = SdkValidatorField.examples[1]
    call = (
        "from acp.schema import AgentMessageChunk, SessionNotification, TextContentBlock;"
        "chunk = AgentMessageChunk(sessionUpdate='agent_message_chunk', content=TextContentBlock(type='text', text='hi'));"
        "print(frame(SessionNotification(sessionId='s1', update=chunk)))"
    )
    framed = {}
    for name, source in (("before", example.before), ("after", example.after)):
        (tmp_path / f"{name}.py").write_text(source)
        for version in ("0.6.3", TARGET):
            run = subprocess.run(
                [str(sdk_python(version)), "-c", f"from {name} import frame; {call}"],
                cwd=tmp_path,
                capture_output=True,
                text=True,
                check=True,
            )
            framed[name, version] = [key for key in json.loads(run.stdout) if key != "update" and "meta" not in key]
    assert framed["before", "0.6.3"] == framed["after", "0.6.3"] == framed["after", TARGET] == ["sessionId"]
    assert framed["before", TARGET] == ["session_id"]  # what fix prevents: another key on the wire


SELF_CALLS = GOLDEN / "move-0-7-handler-self-calls"
UNKNOWN_SESSION = "never-made"


def said_to(run: dict[str, Any], session: str) -> list[str]:
    """The text of the agent's message chunks to `session`, in order."""
    return [
        message["params"]["update"]["content"]["text"]
        for direction, message in run["frames"]
        if direction == "agent->client"
        and message.get("method") == "session/update"
        and message["params"]["sessionId"] == session
    ]


def test_an_agent_calling_its_own_moved_handler_makes_a_session_on_the_target() -> None:
    # Its prompt handler, on a session it never made, calls its own `newSession`, moved
    # by fix to `self.new_session(cwd=..., mcp_servers=...)`.
    script = SELF_CALLS / "expected" / "agent.py"
    run = drive(TARGET, script, prompt_session=UNKNOWN_SESSION)
    assert run["failure"] is None, run["failure"]
    assert answer_to(run, "session/prompt")["result"] == {"stopReason": "end_turn"}
    assert said_to(run, UNKNOWN_SESSION) == ["created 32"]
    known = drive(TARGET, script)
    assert said_to(known, known["session_id"]) == ["known session"]


def test_the_handler_moved_without_its_call_fails_the_prompt_on_the_target(tmp_path: Path) -> None:
    # The negative control: what fix wrote before it moved the calls, the handler renamed
    # and its call left as 0.6 wrote it.
    moved = (SELF_CALLS / "expected" / "agent.py").read_text()
    call = 'self.new_session(cwd="/", mcp_servers=[])'
    assert call in moved
    script = tmp_path / "agent.py"
    script.write_text(
        moved.replace(call, 'self.newSession(NewSessionRequest(cwd="/", mcpServers=[]))').replace(
            "from acp.schema import ", "from acp.schema import NewSessionRequest, "
        )
    )
    run = drive(TARGET, script, prompt_session=UNKNOWN_SESSION)
    error = answer_to(run, "session/prompt")["error"]
    assert "'EchoAgent' object has no attribute 'newSession'" in json.dumps(error), error
    assert said_to(run, UNKNOWN_SESSION) == []
