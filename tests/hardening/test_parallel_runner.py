"""The runner's worker pool: the same results as one process, crash isolation, workers
that end with their parent, and a start-up that stays light for a clean file (no
LibCST, no pool)."""

from __future__ import annotations

import contextlib
import functools
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hardening_support import LEGACY_SNIPPETS

from acp_migrate.engine.execution import pool, runner
from acp_migrate.engine.execution.runner import run
from acp_migrate.results import Mode


def make_project(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for index in range(12):
        (root / f"legacy_{index:02}.py").write_text(LEGACY_SNIPPETS[index % len(LEGACY_SNIPPETS)])
        (root / f"clean_{index:02}.py").write_text(f"VALUE = {index}\n")
    (root / "broken.py").write_bytes(b"def broken(:\n    slash_commands\n")
    (root / "undecodable.py").write_bytes(b"x = '\xff'  # slash_commands\n")
    (root / "binary.py").write_bytes(b"\0\1\2")
    (root / "locked.py").write_text(LEGACY_SNIPPETS[0])
    (root / "locked.py").chmod(0o444)


@pytest.mark.parametrize("mode", list(Mode))
def test_the_pool_gives_the_same_result_as_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: Mode
) -> None:
    monkeypatch.setattr(runner, "POOL_MIN_WORK", 1)  # this small project's candidates count as worth a pool
    monkeypatch.setattr(runner, "BATCH_FILES", 5)  # the rest of the walk in several batches
    pools = []
    run_in_workers = runner.run_in_workers
    monkeypatch.setattr(runner, "run_in_workers", lambda *args: pools.append(args[2]) or run_in_workers(*args))
    results = {}
    for workers in (1, 2):
        project = tmp_path / f"workers{workers}"
        make_project(project)
        monkeypatch.chdir(project)
        results[workers] = run(mode, ["."], workers=workers)
        results[workers, "files"] = {path.name: path.read_bytes() for path in project.iterdir()}
    assert pools == [2]  # one process: no pool
    assert results[1] == results[2]
    assert results[1, "files"] == results[2, "files"]
    assert len(results[1].files) == 28


def test_a_big_run_leaves_libcst_to_its_workers(tmp_path: Path) -> None:
    """The run's own process walks and collects; the workers screen, and import LibCST
    at the first candidate they meet."""
    make_project(tmp_path / "project")
    script = (
        "import sys\n"
        "from acp_migrate.engine.execution import runner\n"
        "runner.POOL_MIN_WORK = 1\n"
        f"result = runner.run('check', [{str(tmp_path / 'project')!r}], workers=2)\n"
        "print(len(result.findings), 'libcst' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    findings, libcst_here = done.stdout.split()
    assert int(findings) >= 12 and libcst_here == "False"


@pytest.mark.parametrize("candidates", [10, 11])
def test_workers_start_only_for_candidates_worth_their_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, candidates: int
) -> None:
    """Clean files cost nothing to screen; the candidates' bytes decide (POOL_MIN_WORK)."""
    snippet = LEGACY_SNIPPETS[0]
    monkeypatch.setattr(runner, "POOL_MIN_WORK", 10 * len(snippet.encode()) + 1)
    pools = []
    run_in_workers = runner.run_in_workers
    monkeypatch.setattr(runner, "run_in_workers", lambda *args: pools.append(args[2]) or run_in_workers(*args))
    for index in range(candidates):
        (tmp_path / f"legacy_{index}.py").write_text(snippet)
    for index in range(100):
        (tmp_path / f"clean_{index}.py").write_text(f'"""Not slash_commands: {index}."""\n')
    monkeypatch.chdir(tmp_path)
    result = run(Mode.CHECK, ["."], workers=2)
    assert len({finding.path for finding in result.findings}) == candidates
    assert len(result.files) == candidates + 100
    assert pools == ([] if candidates == 10 else [2])


def _crashing_analysis(real):
    def analyze(source: bytes, *, path: str, **kwargs):
        if os.path.basename(path).startswith("crash"):
            os._exit(70)  # what a native crash in LibCST's parser does to a worker
        return real(source, path=path, **kwargs)

    return analyze


@pytest.mark.skipif(sys.platform != "linux", reason="the fork start method carries the patched analysis")
def test_a_crashing_worker_costs_only_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "POOL_MIN_WORK", 1)
    make_project(tmp_path / "project")
    for index in range(2):
        (tmp_path / "project" / f"crash_{index}.py").write_text(LEGACY_SNIPPETS[1])
    monkeypatch.chdir(tmp_path / "project")
    monkeypatch.setattr(runner, "analyze_source", _crashing_analysis(runner.analyze_source))

    result = run(Mode.CHECK, ["."], workers=2)

    errors = {error.path: error.reason for error in result.errors}
    assert errors["crash_0.py"] == errors["crash_1.py"] == "internal error: the analysis crashed its process"
    assert {path for path in errors if not path.startswith("crash")} == {"broken.py", "undecodable.py", "binary.py"}
    assert len({f.path for f in result.findings}) == 13  # the 12 legacy files and locked.py


def _wait_for_go_or_stop(item: int, folder: Path) -> str:
    """Item 0 ends at once; the others wait, until the pool is stopped (or for a
    minute: a safety net that makes the test fail, not pass)."""
    (folder / f"started-{item}").touch()
    deadline = time.monotonic() + 60
    while item and time.monotonic() < deadline:
        if pool.stop_requested():
            (folder / f"stopped-{item}").touch()
            return "stopped"
        time.sleep(0.01)
    return "done" if not item else "gave up"


def test_a_stopped_pool_drops_the_items_not_started_and_stops_the_running_ones(tmp_path: Path) -> None:
    """The caller stops (Ctrl-C in the run's loop): the items not started are dropped,
    and a running one sees `stop_requested` before its next file."""
    results = pool.run_in_workers(functools.partial(_wait_for_go_or_stop, folder=tmp_path), range(20), 2)
    with contextlib.closing(results):
        first_item, first_result = next(results)
    assert (first_item, first_result) == (0, "done")
    # (closing waited for the running items)
    started = {int(path.name.split("-")[1]) for path in tmp_path.glob("started-*")}
    stopped = {int(path.name.split("-")[1]) for path in tmp_path.glob("stopped-*")}
    assert 0 in started and len(started) < 20
    assert stopped == started - {0}


def _modules_after_check(path: Path, cwd: Path) -> set[str]:
    script = (
        "import sys\n"
        "from acp_migrate.cli import run_command\n"
        f"sys.argv = ['acp-migrate', 'check', {str(path)!r}]\n"
        "run_command()\n"
        "print('MODULES', *sorted(sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=cwd, capture_output=True, text=True, timeout=60)
    (line,) = [line for line in result.stderr.splitlines() if line.startswith("MODULES ")]
    return set(line.split()[1:])


def test_a_clean_file_imports_neither_libcst_nor_pydantic_nor_the_pool(tmp_path: Path) -> None:
    # A configured project: validating its rule codes reads the rules' declarations,
    # which must not import LibCST (nor pydantic) either.
    (tmp_path / "pyproject.toml").write_text("[tool.acp-migrate]\nselect = ['ACP001']\nignore = ['ACP004']\n")
    (tmp_path / "clean.py").write_text("import os\n\nSEP = os.sep\n")
    modules = _modules_after_check(tmp_path / "clean.py", tmp_path)
    assert "acp_migrate.engine.execution.runner" in modules and "tomllib" in modules
    assert not {m for m in modules if m.split(".")[0] in ("libcst", "pydantic", "pydantic_core")}
    assert "concurrent.futures.process" not in modules and "multiprocessing" not in modules
    # Nor what only other paths use: the report formats not asked for, the wire probe
    # (the command line declares its command: that module and its caps only).
    other_paths = ("json_format", "sarif", "github", "statistics", "diff", "rules")
    assert not modules & {f"acp_migrate.report.{name}" for name in other_paths}
    probe_command = {"acp_migrate.probe", "acp_migrate.probe.cli", "acp_migrate.probe.limits"}
    assert not {m for m in modules if m.startswith("acp_migrate.probe")} - probe_command
    assert "asyncio" not in modules


def test_a_few_legacy_files_are_fixed_without_a_pool(tmp_path: Path) -> None:
    assert 31 * len(LEGACY_SNIPPETS[0].encode()) < runner.POOL_MIN_WORK
    for index in range(31):
        (tmp_path / f"legacy_{index}.py").write_text(LEGACY_SNIPPETS[0])
    modules = _modules_after_check(tmp_path, tmp_path)
    assert "libcst" in modules and "concurrent.futures.process" not in modules


def test_workers_die_with_a_killed_parent(tmp_path: Path) -> None:
    """Pool workers block on their queue forever when the parent dies; PR_SET_PDEATHSIG ends them."""
    if sys.platform != "linux":
        pytest.skip("Linux only")
    script = (
        "import os, sys, threading\n"
        "from acp_migrate.engine.execution import pool\n"
        "def pid(item):\n"
        "    return os.getpid()\n"
        "results = pool.run_in_workers(pid, range(8), 2)\n"
        "print(' '.join(map(str, sorted({next(results)[1] for _ in range(8)}))), flush=True)\n"
        "threading.Event().wait()\n"
    )
    with subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None
        workers = [int(pid) for pid in process.stdout.readline().split()]
        assert workers
        process.kill()
    for pid in workers:
        while True:  # (the test's own timeout is the safety net)
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            if Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z"):
                break  # dead, waiting for init to reap it
            time.sleep(0.02)
