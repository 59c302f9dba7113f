"""fix's postcondition, end to end: it reads back what it wrote with the real rules.

A rewire that claims to move a list but leaves the advertiser unbound (simulated here by
dropping the bind it computes) writes an agent that runs and advertises nothing; the
read-back finds ACP010 there, so fix exits 1 and names the class's call, never 0.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from acp_migrate.engine.execution.postcondition import AFTER_FIX
from acp_migrate.engine.execution.runner import run
from acp_migrate.results import Mode
from acp_migrate.rules.shared import rewire

CASE = Path(__file__).resolve().parents[1] / "golden" / "rewire-same-class" / "input"


@pytest.fixture
def agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(CASE, tmp_path, dirs_exist_ok=True)
    (tmp_path / "pyproject.toml").write_text("[tool.acp-migrate]\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_sound_rewire_is_proven_and_exits_0(agent: Path) -> None:
    result = run(Mode.FIX, ["."], workers=1)

    assert result.exit_code() == 0, [f.message for f in result.remaining]
    assert "self.command_advertiser.bind(self._conn)" in (agent / "agent.py").read_text()


def test_a_rewire_that_leaves_the_advertiser_unbound_is_caught(agent: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    computed = rewire._create_and_bind

    def forgets_the_bind(*args):
        computed(*args)
        return None  # the bind `initialize` was to start with

    monkeypatch.setattr(rewire, "_create_and_bind", forgets_the_bind)
    result = run(Mode.FIX, ["."], workers=1)

    assert ".bind(" not in (agent / "agent.py").read_text()
    assert [(f.path, f.code) for f in result.remaining] == [("agent.py", "ACP010")]
    [finding] = result.remaining
    assert finding.message.startswith(AFTER_FIX + "`self.command_advertiser` is given commands but never bound")
    assert result.exit_code() == 1
