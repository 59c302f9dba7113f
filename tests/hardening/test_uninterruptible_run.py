"""A `fix` is one step for the tree (issue 32): nothing is written until every file is
analysed and the project decided; then every write is staged, and renamed in one burst.
Stopped before the burst, the tree is byte-identical and the output says nothing was
written; stopped during it, the burst ends, the tree is fully migrated and the output
says so. Each phase is reached through a FIFO the run waits on (ACP_MIGRATE_PHASES),
and the signal is sent while it waits there: no sleep. Killed during the burst (SIGKILL,
a power loss), the run leaves its journal: the next fix finishes the burst, check
refuses the half-written tree, and a journal it cannot trust is refused, nothing done."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from hardening_support import CLI, HANG_GUARD, REPO, holding_fifo, run_cli_process, snapshot
from support.processes import session_ended, wait_until

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
KILL = {"sigkill": (signal.SIGKILL, True, -signal.SIGKILL)}
JOURNAL = ".acp-migrate-journal"


def _project(root: Path, *, git: bool = False) -> Path:
    tree = root / "project"
    shutil.copytree(PROJECT, tree, ignore=shutil.ignore_patterns("__pycache__"))
    (tree / "pyproject.toml").write_text("[tool.acp-migrate]\n")
    if git:
        subprocess.run(["git", "init", "-q", str(tree)], check=True)
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


def _stopped_at(
    tmp_path: Path, phase: str, stop: str | None, while_waiting=None, *, git: bool = False
) -> tuple[Path, subprocess.Popen, str]:
    """A fix of a copy of the project, stopped by `stop` (None: not stopped) while it
    waits at `phase` (`while_waiting(tree)` runs there first); the tree, the process,
    its stderr."""
    tree = _project(tmp_path, git=git)
    phases = tmp_path / "phases"
    phases.mkdir()
    os.mkfifo(phases / phase)
    process = subprocess.Popen(
        [str(CLI), "fix", "."], cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        start_new_session=True, env={**os.environ, "ACP_MIGRATE_PHASES": str(phases)},
    )  # fmt: skip
    number, to_group, _ = (STOPS | KILL)[stop] if stop else (None, False, None)
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


def _killed_in_burst(tmp_path: Path, *, git: bool = False) -> Path:
    """A project whose fix was killed (SIGKILL) after the first rename of its burst."""
    tree, process, errors = _stopped_at(tmp_path, "burst", "sigkill", git=git)
    assert process.returncode == -signal.SIGKILL, (process.returncode, errors)
    return tree


def _staged(tree: Path) -> list[str]:
    return sorted(str(path.relative_to(tree)) for path in tree.rglob("*.acp-migrate.tmp"))


def test_a_fix_killed_during_its_burst_is_finished_by_the_next_fix(tmp_path: Path, trees) -> None:
    # SIGKILL cannot be held: the burst stops after its first rename, the companion
    # written and the agent, schema and tests not. Nothing used to finish it.
    before, after = trees
    tree = _killed_in_burst(tmp_path)
    killed = snapshot(tree)
    assert killed["acp_command_advertiser.py"] == after["acp_command_advertiser.py"]
    assert all(killed[path] == before[path] for path in WRITTEN[1:])  # mixed: each file whole
    assert JOURNAL in killed
    assert len(_staged(tree)) == 4

    result = run_cli_process("fix", ".", cwd=tree)

    assert result.returncode == 0, result
    assert result.stderr.splitlines()[0] == (
        "fix finished the writes of a fix killed while writing: 4 files written"
        " (agent.py, schema.py, tests/test_capabilities.py, tests/test_initialize.py)"
    ), result.stderr
    assert snapshot(tree) == after  # as a clean run's: no journal, no staged file


def test_check_refuses_a_tree_a_killed_fix_left_half_written(tmp_path: Path) -> None:
    tree = _killed_in_burst(tmp_path)
    killed = snapshot(tree)

    for mode in ("check", "diff"):
        result = run_cli_process(mode, ".", cwd=tree)

        assert result.returncode == 2, result
        assert result.stderr == (
            f"error: {JOURNAL}: a fix was killed while writing its files (1 of 5 written, the others staged"
            " beside them): run `acp-migrate fix` to finish it\n"
        )
        assert snapshot(tree) == killed  # they write nothing


def test_a_killed_fix_in_a_git_work_tree_keeps_its_journal_in_git_folder(tmp_path: Path, trees) -> None:
    # There git never commits it, and a clone cannot bring one.
    _, after = trees
    tree = _killed_in_burst(tmp_path, git=True)
    assert (tree / ".git/acp-migrate-journal").is_file()
    assert not (tree / JOURNAL).exists()

    assert run_cli_process("check", ".", cwd=tree).returncode == 2
    assert run_cli_process("fix", ".", cwd=tree).returncode == 0
    assert not (tree / ".git/acp-migrate-journal").exists()
    assert {path: data for path, data in snapshot(tree).items() if not path.startswith(".git/")} == after


def test_a_killed_fix_is_not_finished_over_a_file_edited_since(tmp_path: Path) -> None:
    tree = _killed_in_burst(tmp_path)
    with (tree / "agent.py").open("a") as agent:
        agent.write("# edited\n")
    (tree / _staged(tree)[-1]).unlink()  # and a staged file gone: the first error is said
    killed = snapshot(tree)

    result = run_cli_process("fix", ".", cwd=tree)

    assert result.returncode == 2, result
    assert result.stderr.startswith(
        f"error: {JOURNAL}: a fix was killed while writing its files, and its journal cannot finish it:"
        " agent.py: changed since the killed run read it; nothing was done\n"
    ), result.stderr
    assert snapshot(tree) == killed


def test_a_journal_whose_writes_are_all_done_is_removed_and_said(tmp_path: Path) -> None:
    # Killed after its last rename, before the journal's removal: the tree is whole.
    tree = _project(tmp_path)
    agent = (tree / "agent.py").read_bytes()
    (tree / JOURNAL).write_bytes(_journal("agent.py", ".agent.py.1.0123abcd.acp-migrate.tmp", b"before\n", agent))

    result = run_cli_process("fix", ".", cwd=tree)

    assert result.returncode == 0, result
    assert result.stderr == (
        "fix removed the journal of a fix killed once its writes were done: nothing was left to write\n"
    )
    assert not (tree / JOURNAL).exists()


def _waits_for_a_lock(pid: int) -> bool:
    # /proc/locks marks a process blocked on a lock "->".
    return any(line.split()[1] == "->" and line.split()[5] == str(pid) for line in Path("/proc/locks").read_text().splitlines())  # fmt: skip


def test_a_check_started_during_a_fix_burst_waits_for_its_end(tmp_path: Path, trees) -> None:
    # A live burst's journal is locked: it is not taken for a killed run's.
    _, after = trees
    checks = []

    def check(tree: Path) -> None:
        checks.append(subprocess.Popen([str(CLI), "check", "."], cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))  # fmt: skip
        wait_until(lambda: _waits_for_a_lock(checks[0].pid) or checks[0].poll() is not None, "the check to wait")
        assert checks[0].poll() is None, checks[0].communicate()

    tree, process, errors = _stopped_at(tmp_path, "burst", None, check)

    assert (process.returncode, errors) == (0, "")
    assert checks[0].communicate(timeout=HANG_GUARD) == ("All checks passed.\n", "")
    assert checks[0].returncode == 0
    assert snapshot(tree) == after


def _journal(target: str, staged: str | None, before: bytes, after: bytes | None) -> bytes:
    """A journal of one write, its digests right."""
    digest = lambda data: hashlib.sha256(data).hexdigest() if data is not None else None
    write = {"target": target, "staged": staged, "before": digest(before), "after": digest(after)}
    return json.dumps({"acp-migrate journal": 1, "writes": [write]}).encode()


OUTSIDE = b"the user's own file\n"
PLANTED = b"import os; os.system('echo pwned')\n"
PLANTED_NAME = ".victim.py.1.0123abcd.acp-migrate.tmp"  # the writer's naming, for victim.py


def _victim_outside(tree: Path) -> Path:
    (tree.parent / "elsewhere").mkdir()
    (tree.parent / "elsewhere/victim.py").write_bytes(OUTSIDE)
    (tree.parent / "elsewhere" / PLANTED_NAME).write_bytes(PLANTED)
    return tree.parent / "elsewhere/victim.py"


def _outside(tree: Path) -> bytes:
    _victim_outside(tree)
    return _journal("../elsewhere/victim.py", PLANTED_NAME, OUTSIDE, PLANTED)


def _absolute(tree: Path) -> bytes:
    return _journal(str(_victim_outside(tree)), PLANTED_NAME, OUTSIDE, PLANTED)


def _through_a_link(tree: Path) -> bytes:
    (tree / "link").symlink_to(_victim_outside(tree).parent)
    return _journal("link/victim.py", PLANTED_NAME, OUTSIDE, PLANTED)


def _another_file_renamed(tree: Path) -> bytes:
    # The schema renamed over the agent: a staged file must be of the writer's naming.
    return _journal("agent.py", "schema.py", (tree / "agent.py").read_bytes(), (tree / "schema.py").read_bytes())


def _a_user_file_deleted(tree: Path) -> bytes:
    # A deletion needs the digest of what the file held: this journal cannot know it.
    return _journal("README.md", None, b"a guess\n", None)


def _huge(tree: Path) -> None:
    with (tree / JOURNAL).open("wb") as journal:
        journal.truncate(64 * 1024 * 1024)  # sparse: costs no disk


def _a_link_to_a_journal(tree: Path) -> None:
    (tree.parent / "journal.json").write_bytes(_outside(tree))
    (tree / JOURNAL).symlink_to(tree.parent / "journal.json")


def _not_json(tree: Path) -> bytes:
    return b'{"acp-migrate journal": 1, "writes": ['


HOSTILE = {
    "a file outside the project": (_outside, "'../elsewhere/victim.py' is outside the project"),
    "an absolute path": (_absolute, "is not a path inside the project"),
    "a path through a symbolic link": (_through_a_link, "'link/victim.py' goes through a symbolic link"),
    "another file as the staged one": (_another_file_renamed, "agent.py: 'schema.py' is not a file staged for it"),
    "a user's file deleted": (_a_user_file_deleted, "README.md: changed since the killed run read it"),
    "bad JSON": (_not_json, "cannot be read: not a journal acp-migrate wrote (not JSON)"),
    "a huge file": (_huge, "cannot be read: too large to analyse: 64.0 MiB (the limit is 4 MiB)"),
    "a symbolic link": (_a_link_to_a_journal, "cannot be read: a symbolic link"),
}


@pytest.mark.parametrize("mode", ["fix", "check"])
@pytest.mark.parametrize("case", HOSTILE)
def test_a_journal_that_cannot_be_trusted_is_refused_with_nothing_written(tmp_path: Path, case: str, mode: str) -> None:
    # A repository can bring a journal (not in .git/ but at the root of a tree git does
    # not hold); it must not make fix write outside the tree, or rename or delete files
    # the journal's run did not stage.
    tree = _project(tmp_path)
    make, reason = HOSTILE[case]
    journal = make(tree)
    if journal is not None:
        (tree / JOURNAL).write_bytes(journal)
    everything = snapshot(tmp_path)

    result = run_cli_process(mode, ".", cwd=tree)

    assert result.returncode == 2, result
    assert result.stderr.startswith(f"error: {JOURNAL}: a fix was killed while writing its files, and its journal"), result.stderr  # fmt: skip
    assert reason in result.stderr.splitlines()[0], result.stderr
    assert "nothing was done" in result.stderr.splitlines()[0]
    assert result.stderr.splitlines()[1].startswith("error: restore the files"), result.stderr
    assert snapshot(tmp_path) == everything


def test_a_rename_failing_in_the_burst_is_said_and_finished_by_the_next_fix(tmp_path: Path, trees) -> None:
    # The journal is written: the files not renamed stay staged, and the next fix renames them.
    before, after = trees

    def in_the_way(tree: Path) -> None:  # the burst's last rename will fail
        (tree / "tests/test_initialize.py").unlink()
        (tree / "tests/test_initialize.py/inside").mkdir(parents=True)

    tree, process, errors = _stopped_at(tmp_path, "burst", None, in_the_way)

    assert process.returncode == 2, errors
    assert (
        "tests/test_initialize.py: error: is a directory: the run's writes stopped here; the next fix finishes them"
    ) in errors.splitlines()
    assert not [line for line in errors.splitlines() if line.startswith(("agent.py:", "schema.py:"))], errors
    cut = snapshot(tree)
    assert all(cut[path] == after[path] for path in WRITTEN[:-1])
    shutil.rmtree(tree / "tests/test_initialize.py")
    (tree / "tests/test_initialize.py").write_bytes(before["tests/test_initialize.py"])

    result = run_cli_process("fix", ".", cwd=tree)

    assert result.returncode == 0, result
    assert result.stderr.splitlines()[0] == (
        "fix finished the writes of a fix killed while writing: 1 file written (tests/test_initialize.py)"
    )
    assert snapshot(tree) == after
