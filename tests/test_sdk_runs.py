"""Run what the SDK rules write: each `sdk-*` golden case's migrated agent, over stdio, on
the SDK target (1.0: its latest pre-release on the index) and, where the migrated code
runs there too, on the release the code was written for, each in a virtualenv of its own (support/sdk_venv.py), driven in raw
JSON-RPC (support/acp_raw.py): `initialize`, `session/new` answering a session id, a
prompt answered `end_turn` after the updates the agent sends. The case's input, run on
1.0, fails at import: the negative control.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path

import pytest
from support.acp_raw import FROM_AGENT, RawAgent
from support.sdk_venv import sdk_env, sdk_python

pytestmark = pytest.mark.slow  # virtualenvs of two SDK releases, agents started

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
TARGET = "1.0.0rc3"  # SDK 1.0 as the index has it
# case -> (the agent's module, the expression making it, the releases it runs on: the
# target, then the one its code is written for where the migrated code runs there too,
# the session updates a prompt of "hi" brings, by kind)
RUNS = {
    "sdk-1-0-helpers": (
        "agent",
        "EchoAgent()",
        (TARGET, "0.12.1"),
        ["plan", "tool_call", "agent_message_chunk", "tool_call_update"],
    ),
    "sdk-0-8-numbered-unions": (
        "agent",
        "EchoAgent()",
        ("0.8.1", "0.7.1"),
        ["agent_message_chunk", "agent_thought_chunk"],
    ),
    # AuthMethodAgent and KillTerminalResponse are new in 0.9: the target alone
    "sdk-0-9-renamed-classes": ("agent", "EchoAgent()", ("0.9.0",), ["agent_message_chunk"]),
}
# Cases whose migrated code is no agent to start, and what it is instead.
NO_AGENT = {"sdk-requirement-excludes-target": "requirement files and a function"}
SERVE = "import asyncio, sys, acp; import {module} as m; asyncio.run(acp.run_agent(eval({make!r}, vars(m))))"


def test_every_sdk_case_runs() -> None:
    migrated = {p.name for p in GOLDEN.glob("sdk-*") if (p / "expected").is_dir()}
    assert sorted(RUNS) == sorted(migrated - set(NO_AGENT))


async def _drive(python: Path, folder: Path, module: str, make: str) -> tuple[dict, dict, list[str], RawAgent]:
    env = {**sdk_env(), "PYTHONPATH": str(folder)}
    argv = [python, "-c", SERVE.format(module=module, make=make)]
    async with RawAgent(argv, cwd=folder, env=env, timeout=60.0) as agent:
        initialized = await agent.request("initialize", {"protocolVersion": 1, "clientCapabilities": {}})
        assert "result" in initialized, (initialized, agent.stderr)
        new = await agent.request("session/new", {"cwd": str(folder), "mcpServers": []})
        session_id = new["result"]["sessionId"]
        prompt = await agent.request(
            "session/prompt", {"sessionId": session_id, "prompt": [{"type": "text", "text": "hi"}]}
        )
    updates = [
        message["params"]["update"]
        for direction, message in agent.frames
        if direction == FROM_AGENT and message.get("method") == "session/update"
    ]
    texts = [u["content"]["text"] for u in updates if u["sessionUpdate"] == "agent_message_chunk"]
    return new, prompt, [u["sessionUpdate"] for u in updates] + texts, agent


RELEASES = [(case, release) for case, (_, _, releases, _) in sorted(RUNS.items()) for release in releases]


@pytest.mark.parametrize(("case", "release"), RELEASES, ids=[f"{c}-{r}" for c, r in RELEASES])
def test_the_migrated_agent_serves_a_prompt(case: str, release: str, tmp_path: Path) -> None:
    module, make, _, kinds = RUNS[case]
    folder = tmp_path / case
    shutil.copytree(GOLDEN / case / "expected", folder)
    new, prompt, seen, agent = asyncio.run(_drive(sdk_python(release), folder, module, make))
    assert new["result"]["sessionId"], new
    assert prompt.get("result", {}).get("stopReason") == "end_turn", (prompt, agent.stderr)
    assert seen == [*kinds, "hi"]


@pytest.mark.parametrize("case", sorted(RUNS))
def test_the_input_fails_at_import_on_the_target(case: str, tmp_path: Path) -> None:
    module, _, releases, _ = RUNS[case]
    folder = tmp_path / case
    shutil.copytree(GOLDEN / case / "input", folder)
    run = subprocess.run(
        [sdk_python(releases[0]), "-c", f"import {module}"],
        cwd=folder,
        env={**sdk_env(), "PYTHONPATH": str(folder)},
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1 and "ImportError" in run.stderr, run.stderr
