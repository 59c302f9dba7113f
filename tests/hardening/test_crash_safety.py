"""Crash safety and concurrency of `fix`, with real processes and real signals.

- A `fix` killed with SIGKILL at any point leaves every file with either its old or its
  new content (never truncated, never mixed), its pool workers die with it, and at
  most some `.<name>.*.acp-migrate.tmp` files stay behind (no PATH walk picks them up).
- Stopped by Ctrl-C or SIGTERM, it ends in moments (exit 130, 143) and leaves no temp file.
- Two `fix` runs at once on one tree end with every file fully migrated.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hardening_support import CLI, LEGACY_SNIPPETS, parses, run_cli, snapshot

from acp_migrate.engine.analysis.codemod import analyze_source

FILES = 60
ROUNDS = 10
TEMP_FILE = re.compile(r"(^|/)\.[^/]+\.acp-migrate\.tmp$")

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals and sessions")


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
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, tuple[bytes, bytes]], float]:
    root = tmp_path_factory.mktemp("template") / "tree"
    expected = make_tree(root)
    # One complete run: its duration spreads the kill times; its result is the "new" content.
    trial = root.parent / "trial"
    shutil.copytree(root, trial)
    started = time.monotonic()
    result = run_cli("fix", ".", cwd=trial)
    duration = time.monotonic() - started
    assert result.returncode == 1 and result.stderr == "", result
    assert snapshot(trial) == {path: new for path, (_, new) in expected.items()}
    return root, expected, duration


def _wait_for_session_to_end(session: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(session, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.02)
    return False


def test_sigkill_at_random_points_leaves_old_or_new_content(tmp_path: Path, template) -> None:
    root, expected, duration = template
    rng = random.Random(2024)
    partial_rounds = 0
    for round_index in range(ROUNDS):
        tree = tmp_path / f"round{round_index}"
        shutil.copytree(root, tree)
        process = subprocess.Popen(
            [str(CLI), "fix", "."], cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        # Spread over the run, start-up and LibCST's import included.
        time.sleep(duration * (round_index + rng.random()) / ROUNDS)
        if round_index % 2:
            os.kill(process.pid, signal.SIGKILL)  # the parent only: its workers must follow
        else:
            os.killpg(process.pid, signal.SIGKILL)  # the whole group, as a CI timeout does
        process.wait()
        if not _wait_for_session_to_end(process.pid, timeout=10):
            os.killpg(process.pid, signal.SIGKILL)
            pytest.fail(f"round {round_index}: worker processes outlived the killed fix")

        files = snapshot(tree)
        leftovers = [path for path in files if path not in expected]
        assert all(TEMP_FILE.search(path) for path in leftovers), leftovers
        new = 0
        for path, (old_content, new_content) in expected.items():
            content = files[path]
            assert content in (old_content, new_content), f"round {round_index}: {path} is neither old nor new"
            new += content != old_content
        partial_rounds += 0 < new < FILES

        if round_index == ROUNDS - 1:  # a killed run is simply run again
            result = run_cli("fix", ".", cwd=tree)
            assert result.returncode == 1 and result.stderr == ""
            files = snapshot(tree)
            assert all(files[path] == new_content for path, (_, new_content) in expected.items())
        shutil.rmtree(tree)
    # The kills must have hit the rewriting itself, not only its start or its end.
    assert partial_rounds >= 2, f"only {partial_rounds} of {ROUNDS} kills landed while files were rewritten"


def test_two_fix_runs_at_once_end_fully_migrated(tmp_path: Path, template) -> None:
    root, expected, _ = template
    tree = tmp_path / "tree"
    shutil.copytree(root, tree)
    runs = [
        subprocess.Popen([str(CLI), "fix", "."], cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=120) for run in runs]
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
    root, expected, _ = template
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


@pytest.mark.parametrize("stop", STOPS)
@pytest.mark.parametrize("size", ["small", "big"])
def test_a_stopped_fix_stops_promptly_and_leaves_old_or_new_content(
    tmp_path: Path, template, big_template, size: str, stop: str
) -> None:
    """Stopped by Ctrl-C or SIGTERM, the run must end in moments, quietly, with exit
    code 130 or 143, every file whole, no temp file, no process left (a worker
    interrupted inside a queue used to leave the run hanging; one killed by SIGTERM
    left its temp file)."""
    number, to_group, exit_code = STOPS[stop]
    root, expected = big_template if size == "big" else template[:2]
    duration = template[2]
    rng = random.Random(130)
    for round_index in range(5):
        tree = tmp_path / f"round{round_index}"
        shutil.copytree(root, tree)
        process = subprocess.Popen(
            [str(CLI), "fix", "."], cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            start_new_session=True,
        )
        # After start-up (an interpreter interrupted while it starts prints a traceback).
        time.sleep(0.3 + duration * (round_index + rng.random()) / 5)
        if to_group:
            os.killpg(process.pid, number)
        else:
            os.kill(process.pid, number)
        try:
            _, errors = process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            pytest.fail(f"round {round_index}: the interrupted fix did not stop")
        assert _wait_for_session_to_end(process.pid, timeout=10), "worker processes outlived the interrupted fix"
        files = snapshot(tree)
        assert set(files) == set(expected)  # no temp file left behind
        assert all(files[path] in (old, new) for path, (old, new) in expected.items())
        finished = all(files[path] == new for path, (_, new) in expected.items())
        assert process.returncode == exit_code or (finished and process.returncode == 1), (process.returncode, errors)
        assert "Traceback" not in errors, errors
        shutil.rmtree(tree)


# The command, its run replaced by one that is over at once, and a signal arriving in
# the moment after it (while the code cache is saved): the window a stop signal used
# to fall through, ending the command with a traceback.
SIGNAL_AFTER_THE_RUN = """
import os, signal, sys
import acp_migrate.cli as cli

def save():
    os.kill(os.getpid(), int(sys.argv[1]))
    len("")  # a call: Python runs the signal's handler here

cli.run_command = lambda: 0
cli.code_cache.save = save
cli.main()
"""


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "sigint"])
def test_a_signal_after_the_run_only_sets_the_exit_code(number: int) -> None:
    result = subprocess.run(
        [sys.executable, "-c", SIGNAL_AFTER_THE_RUN, str(int(number))], capture_output=True, text=True, timeout=60
    )
    assert (result.returncode, result.stderr) == (128 + number, "")


def _catches(pid: int, number: int) -> bool:
    """Whether process `pid` has a handler for signal `number` (Linux: /proc/PID/status)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next((line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), "0")
    return bool(int(caught, 16) >> (number - 1) & 1)


def test_sigterm_during_start_up_ends_the_command_quietly(tmp_path: Path, template) -> None:
    """Once the command takes SIGTERM over (first thing in its start-up), a SIGTERM ends
    it with 143 and no traceback, and every file is old or new; the early parse server
    goes with it. The signal is sent when the process shows its handler, not after a
    sleep: before that no program can catch it (the interpreter is still starting)."""
    root, expected = template[:2]
    tree = tmp_path / "tree"
    shutil.copytree(root, tree)
    process = subprocess.Popen(
        [str(CLI), "fix", "."], cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )
    while not _catches(process.pid, signal.SIGTERM) and process.poll() is None:
        time.sleep(0.001)  # polling a state, not waiting for time to pass
    os.kill(process.pid, signal.SIGTERM)
    _, errors = process.communicate(timeout=60)
    assert _wait_for_session_to_end(process.pid, timeout=10), "processes outlived the stopped start-up"
    files = snapshot(tree)
    assert set(files) == set(expected)
    assert all(files[path] in (old, new) for path, (old, new) in expected.items())
    finished = all(files[path] == new for path, (_, new) in expected.items())
    assert process.returncode == 143 or (finished and process.returncode == 1), (process.returncode, errors)
    assert "Traceback" not in errors, errors
