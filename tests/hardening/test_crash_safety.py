"""Crash safety and concurrency of `fix`, with real processes and real signals.

Each signal is sent at a point the process shows (its handler installed, so many files
written), never after a sleep: the same points are hit on a loaded machine.

- A `fix` killed with SIGKILL at any point leaves every file with either its old or its
  new content (never truncated, never mixed), its pool workers die with it, and at
  most some `.<name>.*.acp-migrate.tmp` files stay behind (no PATH walk picks them up),
  and the journal of its burst of renames if it was cut, which the next fix finishes.
- Stopped by Ctrl-C or SIGTERM, it ends in moments (exit 130, 143) and leaves no temp file.
- Two `fix` runs at once on one tree end with every file fully migrated.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hardening_support import CLI, LEGACY_SNIPPETS, parses, run_cli, snapshot
from support.processes import HANG_GUARD, rewritten, session_ended, wait_for_handler, wait_until

from acp_migrate.engine.analysis.codemod import analyze_source

FILES = 60
ROUNDS = 10
TEMP_FILE = re.compile(r"(^|/)\.[^/]+\.acp-migrate\.tmp$")

pytestmark = [
    pytest.mark.skipif(os.name != "posix", reason="POSIX signals and sessions"),
    pytest.mark.slow,  # real signals on real runs of the command
]


def make_tree(root: Path) -> dict[str, tuple[bytes, bytes]]:
    """FILES legacy modules of some size, plus clean ones: {path: (old, new)}."""
    rng = random.Random(6)
    expected = {}
    for index in range(FILES):
        folder = root / f"pkg{index % 5}"
        folder.mkdir(parents=True, exist_ok=True)
        helpers = "".join(
            # The token in the comment keeps each helper in the traversal (unrelated definitions
            # are skipped), so rewriting takes long enough for the kills to land in it.
            f"\n\ndef helper_{index}_{n}(value):\n    # slash_commands\n    return [value * {n} for _ in range({n})]\n"
            for n in range(rng.randint(2, 12))
        )
        old = (rng.choice(LEGACY_SNIPPETS) + helpers).encode()
        analysis = analyze_source(old, path="x.py")
        assert analysis.fixed_source is not None
        (folder / f"agent_{index}.py").write_bytes(old)
        expected[f"pkg{index % 5}/agent_{index}.py"] = (old, analysis.fixed_source)
        clean = f"VALUE_{index} = {index}\n".encode()
        (folder / f"clean_{index}.py").write_bytes(clean)
        expected[f"pkg{index % 5}/clean_{index}.py"] = (clean, clean)
    return expected


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, tuple[bytes, bytes]]]:
    root = tmp_path_factory.mktemp("template") / "tree"
    expected = make_tree(root)
    # One complete run: its result is the "new" content.
    trial = root.parent / "trial"
    shutil.copytree(root, trial)
    result = run_cli("fix", ".", cwd=trial)
    assert result.returncode == 1 and result.stderr == "", result
    assert snapshot(trial) == {path: new for path, (_, new) in expected.items()}
    return root, expected


def changed(expected: dict[str, tuple[bytes, bytes]]) -> dict[str, bytes]:
    """The files a complete run rewrites: {path: new content}."""
    return {path: new for path, (old, new) in expected.items() if new != old}


def act_when(process: subprocess.Popen, tree: Path, expected, point: str | int) -> bool:
    """Wait until the run reaches `point`: "spawned" (at once), "started" (the command
    caught SIGTERM: its start-up is under way) or a number of files rewritten. True if
    the process is still running then (it may have finished before the last point)."""
    if point == "started":
        return wait_for_handler(process, signal.SIGTERM)
    if point != "spawned":
        targets = changed(expected)
        wait_until(lambda: rewritten(tree, targets) >= point or process.poll() is not None, f"{point} files written")
    return process.poll() is None


# Where a kill lands, and whether it goes to the command alone (its workers must
# follow) or to its whole group, as a CI timeout does: from before the interpreter
# runs to the middle of the rewriting, each point one the process shows, not a time.
KILLS = [
    ("spawned", False), ("spawned", True), ("started", False), ("started", True),
    (1, False), (1, True), (FILES // 3, False), (FILES // 3, True), (FILES * 2 // 3, False), (FILES * 2 // 3, True),
]  # fmt: skip


def test_sigkill_at_any_point_leaves_old_or_new_content(tmp_path: Path, template) -> None:
    root, expected = template
    untouched_rounds = written_rounds = 0
    for round_index, (point, to_group) in enumerate(KILLS):
        tree = tmp_path / f"round{round_index}"
        shutil.copytree(root, tree)
        process = subprocess.Popen(
            [str(CLI), "fix", "."], cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        act_when(process, tree, expected, point)
        with contextlib.suppress(ProcessLookupError):  # a run that ended first: all is new
            if to_group:
                os.killpg(process.pid, signal.SIGKILL)
            else:
                os.kill(process.pid, signal.SIGKILL)  # the parent only: its workers must follow
        process.wait()
        if not session_ended(process.pid):
            os.killpg(process.pid, signal.SIGKILL)
            pytest.fail(f"round {round_index}: worker processes outlived the killed fix")

        files = snapshot(tree)
        leftovers = [path for path in files if path not in expected]
        assert all(TEMP_FILE.search(path) or path == ".acp-migrate-journal" for path in leftovers), leftovers
        new = 0
        for path, (old_content, new_content) in expected.items():
            content = files[path]
            assert content in (old_content, new_content), f"round {round_index}: {path} is neither old nor new"
            new += content != old_content
        untouched_rounds += new == 0
        written_rounds += new > 0

        if round_index == len(KILLS) - 1:  # a killed run is simply run again
            result = run_cli("fix", ".", cwd=tree)
            assert result.returncode == 1, result
            # The kill may have cut the burst: this fix finishes it first, and says so in one line.
            finished = result.stderr.startswith(("fix finished the writes of a fix killed", "fix removed the journal"))
            assert result.stderr == "" or finished and result.stderr.count("\n") == 1, result
            files = snapshot(tree)
            assert set(files) == set(expected)  # no journal, no temp file
            assert all(files[path] == new_content for path, (_, new_content) in expected.items())
        shutil.rmtree(tree)
    # The kills must land both before the writes and once they have begun (a run's
    # writes are one burst of renames: SIGKILL, which cannot be held, may cut it short,
    # each file then still old or new).
    assert untouched_rounds and written_rounds, (untouched_rounds, written_rounds)


def test_two_fix_runs_at_once_end_fully_migrated(tmp_path: Path, template) -> None:
    root, expected = template
    tree = tmp_path / "tree"
    shutil.copytree(root, tree)
    runs = [
        subprocess.Popen([str(CLI), "fix", "."], cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=HANG_GUARD) for run in runs]
    for run, (_, errors) in zip(runs, outputs, strict=True):
        assert run.returncode == 1 and errors == "", errors
    files = snapshot(tree)
    assert set(files) == set(expected)  # no temp file left behind
    for path, (_, new_content) in expected.items():
        assert files[path] == new_content and parses(files[path])
    after = run_cli("check", "--output-format", "json", ".", cwd=tree)
    assert after.stderr == "" and not [f for f in json.loads(after.stdout) if f["fixable"]]


@pytest.fixture(scope="module")
def big_template(tmp_path_factory: pytest.TempPathFactory, template) -> tuple[Path, dict[str, tuple[bytes, bytes]]]:
    """The template and enough clean files for a big run (screened in batches by workers)."""
    root, expected = template
    big = tmp_path_factory.mktemp("big") / "tree"
    shutil.copytree(root, big)
    expected = dict(expected)
    for index in range(600):
        path = f"extra{index % 6}/module_{index}.py"
        (big / path).parent.mkdir(exist_ok=True)
        (big / path).write_bytes(f"CONSTANT = {index}\n".encode())
        expected[path] = (f"CONSTANT = {index}\n".encode(),) * 2
    return big, expected


# How a run is stopped: Ctrl-C at a terminal signals every process of the group; a
# cancelled CI job sends SIGTERM, to the group or to the command alone.
STOPS = {
    "ctrl-c": (signal.SIGINT, True, 130),
    "sigterm": (signal.SIGTERM, True, 143),
    "sigterm to the command": (signal.SIGTERM, False, 143),
}


def stop_and_check(process: subprocess.Popen, tree: Path, expected, stop: str, label: str) -> None:
    """Send the stop, then: the run ends (quietly, 130 or 143, no process left) with
    every file whole and no temp file."""
    number, to_group, exit_code = STOPS[stop]
    with contextlib.suppress(ProcessLookupError):  # a run that ended first: all is new
        if to_group:
            os.killpg(process.pid, number)
        else:
            os.kill(process.pid, number)
    try:
        _, errors = process.communicate(timeout=HANG_GUARD)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        pytest.fail(f"{label}: the interrupted fix did not stop")
    assert session_ended(process.pid), f"{label}: worker processes outlived the interrupted fix"
    files = snapshot(tree)
    assert set(files) == set(expected), label  # no temp file left behind
    assert all(files[path] in (old, new) for path, (old, new) in expected.items()), label
    finished = all(files[path] == new for path, (_, new) in expected.items())
    assert process.returncode == exit_code or (finished and process.returncode == 1), (label, process.returncode, errors)
    assert "Traceback" not in errors, (label, errors)


def start_fix(tree: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [str(CLI), "fix", "."], cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )


@pytest.mark.parametrize("stop", STOPS)
@pytest.mark.parametrize("size", ["small", "big"])
def test_a_stopped_fix_stops_promptly_and_leaves_old_or_new_content(
    tmp_path: Path, template, big_template, size: str, stop: str
) -> None:
    """Stopped by Ctrl-C or SIGTERM in the middle of the rewriting (once the first file
    is written, and once a third are), the run ends, quietly, with exit code 130 or
    143, every file whole, no temp file, no process left (a worker interrupted inside
    a queue used to leave the run hanging; one killed by SIGTERM left its temp file)."""
    root, expected = big_template if size == "big" else template
    for point in (1, FILES // 3):
        tree = tmp_path / f"after{point}"
        shutil.copytree(root, tree)
        process = start_fix(tree)
        act_when(process, tree, expected, point)
        stop_and_check(process, tree, expected, stop, f"after {point} files")
        shutil.rmtree(tree)


# The command, its run replaced by one that is over at once, and a signal arriving in
# the moment after it (while the report is flushed): the window a stop signal used to
# fall through, ending the command with a traceback.
SIGNAL_AFTER_THE_RUN = """
import os, signal, sys
import acp_migrate.__main__ as entry

flush = entry._flush

def flush_after_a_signal(code):
    os.kill(os.getpid(), int(sys.argv[1]))
    len("")  # a call: Python runs the signal's handler here
    return flush(code)

entry._command = lambda: 0
entry._flush = flush_after_a_signal
entry.main()
"""


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "sigint"])
def test_a_signal_after_the_run_only_sets_the_exit_code(number: int) -> None:
    result = subprocess.run(
        [sys.executable, "-c", SIGNAL_AFTER_THE_RUN, str(int(number))], capture_output=True, text=True, timeout=60
    )
    assert (result.returncode, result.stderr) == (128 + number, "")


@pytest.mark.parametrize(
    "stop",
    [
        "ctrl-c",
        "sigterm",
        "sigterm to the command",
    ],
)
def test_a_stop_during_start_up_ends_the_command_quietly(tmp_path: Path, template, stop: str) -> None:
    """Once the command takes the stop signals over (first thing in its start-up), a
    stop ends it with 130 or 143 and no traceback, and every file is old or new; the
    processes it started go with it. The signal is sent when the process shows its
    SIGTERM handler, not after a sleep: before that no program can catch it (the
    interpreter is still starting)."""
    root, expected = template
    tree = tmp_path / "tree"
    shutil.copytree(root, tree)
    process = start_fix(tree)
    act_when(process, tree, expected, "started")
    stop_and_check(process, tree, expected, stop, "during start-up")
