"""A `fix` is one step for the tree (issue 32): nothing is written until every file is
analysed and the project decided; then every write is staged, and renamed in one burst.
Stopped before the burst, the tree is byte-identical and the output says nothing was
written; stopped during it, the burst ends, the tree is fully migrated and the output
says so. Each phase is reached through a FIFO the run waits on (ACP_MIGRATE_PHASES),
and the signal is sent while it waits there: no sleep."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from hardening_support import CLI, HANG_GUARD, REPO, holding_fifo, run_cli_process, snapshot
from support.processes import session_ended

pytestmark = pytest.mark.slow  # the installed command, in processes

# A real project: an agent, its schema (decided for the project), its tests; fix writes
# four files and adds the vendored shim.
PROJECT = REPO / "examples/legacy_agent"
WRITTEN = [
    "acp_command_advertiser.py",
    "agent.py",
    "schema.py",
    "tests/test_capabilities.py",
    "tests/test_initialize.py",
]

STOPS = {"ctrl-c": (signal.SIGINT, True, 130), "sigterm": (signal.SIGTERM, True, 143), "sigterm to the command": (signal.SIGTERM, False, 143)}  # fmt: skip


def _project(root: Path) -> Path:
    tree = root / "project"
    shutil.copytree(PROJECT, tree, ignore=shutil.ignore_patterns("__pycache__"))
    (tree / "pyproject.toml").write_text("[tool.acp-migrate]\n")
    return tree


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """The project's files before fix, and after a fix run to completion."""
    tree = _project(tmp_path_factory.mktemp("complete"))
    before = snapshot(tree)
    result = run_cli_process("fix", ".", cwd=tree)
    assert result.returncode == 0, result
    after = snapshot(tree)
    assert sorted(path for path in after if before.get(path) != after[path]) == WRITTEN
    return before, after


def _stopped_at(tmp_path: Path, phase: str, stop: str | None, while_waiting=None) -> tuple[Path, subprocess.Popen, str]:
    """A fix of a copy of the project, stopped by `stop` (None: not stopped) while it
    waits at `phase` (`while_waiting(tree)` runs there first); the tree, the process,
    its stderr."""
    tree = _project(tmp_path)
    phases = tmp_path / "phases"
    phases.mkdir()
    os.mkfifo(phases / phase)
    process = subprocess.Popen(
        [str(CLI), "fix", "."], cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        start_new_session=True, env={**os.environ, "ACP_MIGRATE_PHASES": str(phases)},
    )  # fmt: skip
    number, to_group, _ = STOPS[stop] if stop else (None, False, None)
    with holding_fifo(process, phases / phase) as running:
        assert running, process.communicate()  # it reached the phase
        if while_waiting is not None:
            while_waiting(tree)
        if number is not None:
            (os.killpg if to_group else os.kill)(process.pid, number)
    try:
        _, errors = process.communicate(timeout=HANG_GUARD)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        pytest.fail(f"the fix stopped at {phase} did not end")
    assert session_ended(process.pid), "worker processes outlived the stopped fix"
    assert "Traceback" not in errors, errors
    return tree, process, errors


@pytest.mark.parametrize("stop", STOPS)
@pytest.mark.parametrize("phase", ["analysis", "decision", "staging"])
def test_a_fix_stopped_before_its_writes_leaves_the_tree_as_it_was(
    tmp_path: Path, trees, phase: str, stop: str
) -> None:
    # Files used to be written as their analysis ended: stopped after the first, the
    # agent was migrated while its schema and tests were not, and nothing said so.
    before, _ = trees

    tree, process, errors = _stopped_at(tmp_path, phase, stop)

    assert process.returncode == STOPS[stop][2], (process.returncode, errors)
    assert snapshot(tree) == before  # byte-identical, no staged temp file left
    assert errors.splitlines()[-1] == "fix stopped: nothing was written", errors


@pytest.mark.parametrize("stop", STOPS)
def test_a_fix_stopped_during_its_writes_finishes_them(tmp_path: Path, trees, stop: str) -> None:
    _, after = trees

    tree, process, errors = _stopped_at(tmp_path, "burst", stop)

    assert process.returncode == STOPS[stop][2], (process.returncode, errors)
    assert snapshot(tree) == after  # fully migrated
    assert errors.splitlines()[-1] == (
        "fix stopped once its writes were done: 5 files written"
        " (acp_command_advertiser.py, agent.py, schema.py, tests/test_capabilities.py, tests/test_initialize.py)"
    ), errors


def test_a_file_edited_while_the_run_stages_stops_every_write(tmp_path: Path, trees) -> None:
    # The bytes of every file are checked again just before the burst: one changed since
    # it was read (an editor saved it) is not overwritten, and so nothing is.
    before, _ = trees

    def edit_the_schema(tree: Path) -> None:
        with (tree / "schema.py").open("a") as schema:
            schema.write("# edited\n")

    tree, process, errors = _stopped_at(tmp_path, "staging", None, edit_the_schema)

    assert process.returncode == 2, errors
    expected = dict(before, **{"schema.py": before["schema.py"] + b"# edited\n"})
    assert snapshot(tree) == expected
    assert "schema.py: error: changed by someone else since it was read: not overwritten" in errors, errors
    assert "agent.py: error: not written: fix writes all of a run's files or none, and schema.py cannot" in errors


def test_a_run_waiting_at_its_burst_unstopped_writes_every_file(tmp_path: Path, trees) -> None:
    # The phases only wait: the same run, not stopped, ends as a run without them.
    _, after = trees

    tree, process, errors = _stopped_at(tmp_path, "burst", None)

    assert (process.returncode, errors) == (0, "")
    assert snapshot(tree) == after
