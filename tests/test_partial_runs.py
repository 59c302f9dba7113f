"""A partial `fix` never breaks the project: a schema the project owns keeps the legacy
field while a caller that passes it is left (suppressed, deselected, outside the run).

Each way runs the real command on a copy of the bundled example, then starts the agent
over stdio: `initialize` must still answer. The whole-project fix afterwards removes
the field and moves the commands.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path

import pytest
from support.acp_stdio import AgentProcess
from support.command import run_acp_migrate

pytestmark = pytest.mark.slow  # the command, then the example agent over stdio

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "legacy_agent"
CALL = "            slash_commands=skill_commands,\n"


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "legacy_agent"
    # The example's own tests/ are migrated too (ACP008: fix names the tests it removes and
    # exits 1): tests/test_e2e_example_tests.py runs them; here the agent alone.
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("__pycache__", "tests"))
    return copy


def _fix(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_acp_migrate("fix", *args, cwd=copy, text=True)


async def _initialize(copy: Path) -> dict:
    async with AgentProcess(copy / "agent.py", cwd=copy) as agent:
        await agent.initialize()
        return agent.result("initialize")


def _suppress_the_call(copy: Path) -> None:
    agent = copy / "agent.py"
    text = agent.read_text()
    assert text.count(CALL) == 1
    agent.write_text(text.replace(CALL, CALL.rstrip("\n") + "  # acp-migrate: ignore[ACP001]\n"))


PARTIAL = {
    # what the acp-migrate-fix pre-commit hook does with a staged schema file
    "schema-file-alone": (None, ["schema.py"], "not in this run"),
    "schema-rule-only": (None, ["--select", "ACP003", "."], "deselected"),
    "caller-suppressed": (_suppress_the_call, ["."], "suppressed"),
}


@pytest.mark.parametrize("way", sorted(PARTIAL))
def test_a_partial_fix_keeps_the_schema_and_the_agent_runs(tmp_path: Path, way: str) -> None:
    prepare, args, why = PARTIAL[way]
    copy = _copy(tmp_path)
    line = (copy / "agent.py").read_text().splitlines().index(CALL.rstrip("\n")) + 1
    caller = f"agent.py:{line} ({why})"
    if prepare is not None:
        prepare(copy)
    before = (copy / "schema.py").read_bytes()

    result = _fix(copy, *args)

    assert result.returncode == 1, result.stdout + result.stderr
    assert f"field `slash_commands` of AgentCapabilities stays: still passed or read by `{caller}`" in result.stdout
    assert (copy / "schema.py").read_bytes() == before
    initialize = asyncio.run(_initialize(copy))
    assert initialize["protocolVersion"] >= 1
    assert [c["name"] for c in initialize["agentCapabilities"]["slashCommands"]] == ["web", "test", "plan"]


def test_the_whole_project_fixed_removes_the_field(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    first = _fix(copy, "schema.py")
    assert first.returncode == 1

    result = _fix(copy, ".")

    assert result.returncode == 0, result.stdout + result.stderr
    assert b"slash_commands" not in (copy / "schema.py").read_bytes() + (copy / "agent.py").read_bytes()
    initialize = asyncio.run(_initialize(copy))
    assert "slashCommands" not in initialize["agentCapabilities"]
