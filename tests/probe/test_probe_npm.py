"""The probe over agents not written in Python, installed from the npm registry
(`npm_cache.py`: once, into a cached folder; no npm or registry fails the test).

- The TypeScript SDK 1.9.0's example agent advertises nothing (no load, resume,
  fork or close, no commands): no finding, and no pass either, since no command
  list was there to judge (the verdict says so).
- `opencode acp` (opencode-ai, pinned; no login needed with a fresh HOME): every
  session kind (load, resume, fork, close advertised), three commands for each,
  always after the setup response. Observed verdict: clean, run after run.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from npm_cache import npm_package
from probe_support import codes

from acp_migrate.probe import ProbeOptions, run_probe

pytestmark = pytest.mark.slow

SDK_VERSION = "1.9.0"
OPENCODE_VERSION = "1.18.33"
OPENCODE_COMMANDS = ["customize-opencode", "init", "review"]


def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail("node is not installed: it runs the TypeScript SDK's example agent")
    return found


def test_the_typescript_sdk_example_agent_is_clean(tmp_path: Path) -> None:
    package = npm_package("@agentclientprotocol/sdk", SDK_VERSION)
    agent = package / "node_modules" / "@agentclientprotocol" / "sdk" / "dist" / "examples" / "agent.js"
    assert agent.is_file(), f"the SDK {SDK_VERSION} ships no {agent}"

    # It has no commands: the wait for its list decides nothing, a short one will do.
    options = ProbeOptions([node(), str(agent)], cwd=str(tmp_path), settle=0.5, timeout=120, list_wait=1.0)
    runs = [run_probe(options) for _ in (1, 2)]

    for result in runs:  # the same verdict, run after run
        assert result.findings == [], (result.run.error, result.run.stderr_tail, result.findings)
        assert result.exit_code == 1 and result.unmet[0].startswith("nothing tested: the agent sent no command list")
        assert [step.method for step in result.transcript.steps] == ["initialize", "session/new"]
        assert result.transcript.command_lists == []  # it advertises no commands at all
        assert [n.message for n in result.notes][-1] == "session/close skipped: not advertised (--all tries it)"


def opencode_options(package: Path, tmp_path: Path, name: str) -> ProbeOptions:
    home = tmp_path / name
    env = {"HOME": str(home)}
    for variable, folder in [
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_STATE_HOME", "state"),
    ]:
        (home / folder).mkdir(parents=True)
        env[variable] = str(home / folder)
    work = home / "project"
    work.mkdir()
    binary = package / "node_modules" / ".bin" / "opencode"
    # Generous: opencode takes seconds to initialize and set sessions up on a cold cache.
    return ProbeOptions(
        [str(binary), "acp"],
        cwd=str(work),
        env=env,
        settle=1.0,
        timeout=180,
        initialize_timeout=120,
        request_timeout=60,
    )


def test_opencode_is_driven_to_a_stable_verdict(tmp_path: Path) -> None:
    package = npm_package("opencode-ai", OPENCODE_VERSION)

    runs = [run_probe(opencode_options(package, tmp_path, f"run{n}")) for n in (1, 2)]
    runs.append(run_probe(replace(opencode_options(package, tmp_path, "burst"), repeat=3, burst=True)))

    for result in runs:
        assert result.run.driven, (result.run.error, result.run.stderr_tail)
        assert result.exit_code in (0, 1)
    verdicts = [(result.exit_code, sorted(codes(result))) for result in runs]
    assert verdicts == [(0, [])] * 3, [[f.message for f in result.findings] for result in runs]

    transcript = runs[0].transcript
    steps = [step.method for step in transcript.steps]
    assert steps[:5] == ["initialize", "session/new", "session/load", "session/resume", "session/fork"]
    assert steps[5:] == ["session/close", "session/close"]
    assert all(not step.failed for step in transcript.steps)
    for listed in transcript.command_lists:
        assert sorted(item["name"] for item in listed.value) == OPENCODE_COMMANDS
    assert {listed.session_id for listed in transcript.command_lists} == {
        step.session_id for step in transcript.setup_steps
    }
