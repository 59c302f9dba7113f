"""The probe over the repository's own agents (official Python SDK 0.12): the legacy
example fails (commands at initialize), the same after `acp-migrate fix` and the shim
example pass, every session kind and a prompt turn included."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from probe_support import REPO, codes, probe_agent

pytestmark = pytest.mark.slow

LEGACY = REPO / "examples" / "legacy_agent"
SHIM = REPO / "examples" / "shim_agent" / "agent.py"
CLI = Path(sys.executable).parent / "acp-migrate"
SETUPS = ["session/new", "session/load", "session/resume", "session/fork"]


def steps(result) -> list[str]:
    return [step.method for step in result.transcript.steps]


def test_the_legacy_example_fails_with_commands_at_initialize() -> None:
    result = probe_agent(LEGACY / "agent.py", settle=0.5)

    assert result.run.driven, result.run.error + result.run.stderr_tail
    assert result.exit_code == 1
    assert "ACP101" in codes(result)
    [at_initialize] = [f for f in result.findings if f.code == "ACP101"]
    assert at_initialize.step == "initialize" and "agentCapabilities.slashCommands" in at_initialize.message
    # Its new sessions send their own `help` alone (from a background task, which may
    # overtake the response: ACP102), the other kinds none: ACP108 for each.
    assert codes(result) <= {"ACP101", "ACP102", "ACP108"}
    assert sorted(f.step for f in result.findings if f.code == "ACP108") == [
        "session/fork",
        "session/load",
        "session/resume",
    ]


def test_the_legacy_example_passes_after_fix(tmp_path: Path) -> None:
    copy = tmp_path / "legacy_agent"
    shutil.copytree(LEGACY, copy, ignore=shutil.ignore_patterns("__pycache__", "tests"))
    fixed = subprocess.run([str(CLI), "fix", str(copy)], capture_output=True, text=True, timeout=120)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr

    result = probe_agent(copy / "agent.py", settle=0.5, prompt="/web agent client protocol")

    assert result.exit_code == 0, (result.run.error, [f.message for f in result.findings])
    # The prompt comes before load, resume and fork: they act on a session with a transcript.
    assert steps(result)[: len(SETUPS) + 2] == ["initialize", "session/new", "session/prompt", *SETUPS[1:]]
    assert "session/close" in steps(result)


def test_the_shim_example_passes_with_a_prompt_turn() -> None:
    result = probe_agent(SHIM, settle=0.5, prompt="hello", cwd=str(REPO))

    assert result.exit_code == 0, (result.run.error, [f.message for f in result.findings])
    prompt = next(step for step in result.transcript.steps if step.method == "session/prompt")
    assert prompt.response.result["stopReason"] == "end_turn"
    # The first prompt unlocks /plan and /reset: a new complete list, after the turn began.
    after = [c for c in result.transcript.command_lists if c.frame.index > prompt.request.index]
    assert [item["name"] for item in after[0].value] == ["web", "test", "plan", "reset"]
