"""Run what the SDK rules write: each `sdk-*` golden case's migrated agent, over stdio, on
the SDK target (1.0: its latest pre-release on the index) and, where the migrated code
runs there too, on the release the code was written for, each in a virtualenv of its own (support/sdk_venv.py), driven in raw
JSON-RPC (support/acp_raw.py): `initialize`, `session/new` answering a session id, a
prompt answered `end_turn` after the updates the agent sends. The SDK's own
`examples/echo_agent.py` and `examples/agent.py` of 0.7.1 (0.7.0's are the same), 0.8.1,
0.9.0, 0.10.1, 0.11.1 and 0.12.1 (from its sdists) are cases too. The case's input fails
at import on the target: the negative control.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.acp_raw import FROM_AGENT, RawAgent
from support.sdk_venv import sdk_env, sdk_python

pytestmark = pytest.mark.slow  # virtualenvs of two SDK releases, agents started

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
TARGET = "1.0.0rc3"  # SDK 1.0 as the index has it


@dataclass(frozen=True)
class Run:
    """One agent of a case, served by `run_agent(make)` from its module."""

    case: str
    module: str
    make: str
    # The target, then the release its code is written for where the migrated code runs there too.
    releases: tuple[str, ...]
    # What a prompt of "hi" brings: each session update's kind, then the agent messages' texts.
    seen: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.case}[{self.module}]"


AMC = "agent_message_chunk"
ECHO = (AMC, "hi")
EXAMPLE = (AMC, AMC, "Client sent:", "hi")  # the SDK's examples/agent.py
RUNS = (
    Run(
        "sdk-1-0-helpers",
        "agent",
        "EchoAgent()",
        (TARGET, "0.12.1"),
        ("plan", "tool_call", AMC, "tool_call_update", "hi"),
    ),
    # Constructors broken to the line length (88; the project's 120), deep in a handler.
    *(
        Run(case, "agent", "EchoAgent()", (TARGET, "0.12.1"), ("tool_call", AMC, "tool_call_update", "hi"))
        for case in ("sdk-1-0-helpers-deep-indent", "sdk-1-0-helpers-line-length-120")
    ),
    Run("sdk-0-8-numbered-unions", "agent", "EchoAgent()", ("0.8.1", "0.7.1"), (AMC, "agent_thought_chunk", "hi")),
    # AuthMethodAgent and KillTerminalResponse are new in 0.9: the target alone
    Run("sdk-0-9-renamed-classes", "agent", "EchoAgent()", ("0.9.0",), ECHO),
    # The SDK's own examples of each release, moved to 1.0.
    *(
        Run(f"sdk-example-{release.replace('.', '-')}", module, make, (TARGET, release), seen)
        for release in ("0.7.1", "0.8.1", "0.9.0", "0.10.1", "0.11.1", "0.12.1")
        for module, make, seen in (("echo_agent", "EchoAgent()", ECHO), ("agent", "ExampleAgent()", EXAMPLE))
    ),
)
# Cases whose migrated code is no agent to start, and what it is instead.
NO_AGENT = {"sdk-requirement-excludes-target": "requirement files and a function"}
SERVE = "import asyncio, sys, acp; import {module} as m; asyncio.run(acp.run_agent(eval({make!r}, vars(m))))"


def test_every_sdk_case_runs() -> None:
    migrated = {p.name for p in GOLDEN.glob("sdk-*") if (p / "expected").is_dir()}
    assert {run.case for run in RUNS} == migrated - set(NO_AGENT)


async def _drive(python: Path, folder: Path, module: str, make: str) -> tuple[dict, dict, tuple[str, ...], RawAgent]:
    env = {**sdk_env(), "PYTHONPATH": str(folder)}
    # What the release deprecates fails the run: the migrated code uses none of it.
    argv = [python, "-W", "error::DeprecationWarning", "-c", SERVE.format(module=module, make=make)]
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
    return new, prompt, (*(u["sessionUpdate"] for u in updates), *texts), agent


RELEASES = [(run, release) for run in RUNS for release in run.releases]


@pytest.mark.parametrize(("run", "release"), RELEASES, ids=[f"{run.id}-{release}" for run, release in RELEASES])
def test_the_migrated_agent_serves_a_prompt(run: Run, release: str, tmp_path: Path) -> None:
    folder = tmp_path / run.case
    shutil.copytree(GOLDEN / run.case / "expected", folder)
    new, prompt, seen, agent = asyncio.run(_drive(sdk_python(release), folder, run.module, run.make))
    assert new["result"]["sessionId"], new
    assert prompt.get("result", {}).get("stopReason") == "end_turn", (prompt, agent.stderr)
    assert seen == run.seen


@pytest.mark.parametrize("run", RUNS, ids=[run.id for run in RUNS])
def test_the_input_fails_at_import_on_the_target(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / run.case
    shutil.copytree(GOLDEN / run.case / "input", folder)
    imported = subprocess.run(
        [sdk_python(run.releases[0]), "-c", f"import {run.module}"],
        cwd=folder,
        env={**sdk_env(), "PYTHONPATH": str(folder)},
        capture_output=True,
        text=True,
    )
    assert imported.returncode == 1 and "ImportError" in imported.stderr, imported.stderr
