"""The runner's process pool: same results as one process, crash isolation, and a
start-up that stays light for a clean file (no LibCST, no pool)."""

from __future__ import annotations

import functools
import gc
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hardening_support import LEGACY_SNIPPETS

from acp_migrate.engine import early_server, runner
from acp_migrate.engine.runner import Mode, run


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


# Where files are screened: here (small runs), or by the workers in batches (big runs;
# the threshold lowered so that this small project counts as big).
SCREENING = {"here": runner.POOL_SCREENS_MIN_FILES, "in batches": 1}


@pytest.mark.parametrize("screening", SCREENING)
@pytest.mark.parametrize("mode", list(Mode))
def test_the_pool_gives_the_same_result_as_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: Mode, screening: str
) -> None:
    monkeypatch.setattr(runner, "POOL_SCREENS_MIN_FILES", SCREENING[screening])
    results = {}
    pools = []  # started here; the parse server starts its own
    start_executor, start_server = runner._start_executor, runner._ParsePool._start_server
    monkeypatch.setattr(runner, "_start_executor", lambda workers: pools.append(workers) or start_executor(workers))
    monkeypatch.setattr(runner._ParsePool, "_start_server", lambda pool: pools.append("server") or start_server(pool))
    for cores in (1, 2):
        project = tmp_path / f"cores{cores}"
        make_project(project)
        monkeypatch.chdir(project)
        monkeypatch.setattr(runner, "_available_cores", lambda cores=cores: cores)
        results[cores] = run(mode, ["."])
        files = {path.name: path.read_bytes() for path in project.iterdir()}
        results[cores, "files"] = files
    # In the run with two cores: a parse server; in batches, first a pool to screen.
    assert pools == (["server"] if screening == "here" else [2, "server"])
    assert results[1] == results[2]
    assert results[1, "files"] == results[2, "files"]
    assert len(results[1].files) == 28


def test_process_all_uses_the_pool_only_for_enough_candidates(monkeypatch: pytest.MonkeyPatch) -> None:
    started = []
    monkeypatch.setattr(runner, "_start_executor", lambda workers: started.append(workers) or pytest.fail("pool"))
    monkeypatch.setattr(runner._ParsePool, "_start_server", lambda pool: pytest.fail("server"))
    jobs = [runner.FileJob(path=f"/nonexistent/{i}.py", display_path=f"{i}.py", mode=Mode.CHECK) for i in range(50)]
    outcomes = list(runner.process_all(jobs, workers=2))
    assert len(outcomes) == 50 and all(o.error == "no such file or directory" for o in outcomes)
    assert started == []


def test_the_parse_pool_answers_each_job_even_of_one_file(tmp_path: Path) -> None:
    (tmp_path / "legacy.py").write_text(LEGACY_SNIPPETS[0])
    job = runner.FileJob(path=str(tmp_path / "legacy.py"), display_path="legacy.py", mode=Mode.CHECK)
    outcomes = list(runner.process_all([job] * (runner.PARALLEL_MIN_FILES + 2), workers=2))
    assert len(outcomes) == runner.PARALLEL_MIN_FILES + 2
    assert all(outcome.findings == outcomes[0].findings != [] for outcome in outcomes)


def _crashing_analysis(real):
    def analyze(source: bytes, *, path: str, **kwargs):
        if os.path.basename(path).startswith("crash"):
            os._exit(70)  # what a native crash in LibCST's parser does to a worker
        return real(source, path=path, **kwargs)

    return analyze


@pytest.mark.skipif(sys.platform != "linux", reason="the fork start method carries the patched analysis")
@pytest.mark.parametrize("screening", SCREENING)
def test_a_crashing_worker_costs_only_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, screening: str) -> None:
    monkeypatch.setattr(runner, "POOL_SCREENS_MIN_FILES", SCREENING[screening])
    make_project(tmp_path / "project")
    for index in range(2):
        (tmp_path / "project" / f"crash_{index}.py").write_text(LEGACY_SNIPPETS[1])
    monkeypatch.chdir(tmp_path / "project")
    monkeypatch.setattr(runner, "_available_cores", lambda: 2)
    monkeypatch.setattr(runner, "analyze_source", _crashing_analysis(runner.analyze_source))

    result = run(Mode.CHECK, ["."])

    errors = {error.path: error.reason for error in result.errors}
    assert errors["crash_0.py"] == errors["crash_1.py"] == "internal error: the analysis crashed its process"
    assert {path for path in errors if not path.startswith("crash")} == {"broken.py", "undecodable.py", "binary.py"}
    assert len({f.path for f in result.findings}) == 13  # the 12 legacy files and locked.py


@pytest.mark.skipif(sys.platform != "linux", reason="the fork start method carries the patch")
@pytest.mark.parametrize("screening", SCREENING)
def test_a_dead_parse_server_costs_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, screening: str) -> None:
    """The server dies before it answers (killed, out of memory): every candidate is
    analysed one at a time instead, and the run neither hangs nor loses a file."""
    monkeypatch.setattr(runner, "POOL_SCREENS_MIN_FILES", SCREENING[screening])
    make_project(tmp_path / "project")
    monkeypatch.chdir(tmp_path / "project")
    monkeypatch.setattr(runner, "_available_cores", lambda: 1)
    expected = run(Mode.CHECK, ["."])
    monkeypatch.setattr(runner, "_available_cores", lambda: 2)
    monkeypatch.setattr(runner, "preload_analysis", lambda: os._exit(9))  # runs in the server only
    retried = []
    one_at_a_time = runner._process_one_at_a_time
    monkeypatch.setattr(runner, "_process_one_at_a_time", lambda jobs: retried.extend(jobs) or one_at_a_time(jobs))
    assert run(Mode.CHECK, ["."]) == expected
    assert len(retried) >= 13  # every candidate: the 12 legacy files and locked.py at least


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
    assert "acp_migrate.engine.runner" in modules and "tomllib" in modules
    assert not {m for m in modules if m.split(".")[0] in ("libcst", "pydantic", "pydantic_core")}
    assert "concurrent.futures.process" not in modules and "multiprocessing" not in modules


def test_a_few_legacy_files_are_fixed_without_a_pool(tmp_path: Path) -> None:
    for index in range(runner.PARALLEL_MIN_FILES - 1):
        (tmp_path / f"legacy_{index}.py").write_text(LEGACY_SNIPPETS[0])
    modules = _modules_after_check(tmp_path, tmp_path)
    assert "libcst" in modules and "concurrent.futures.process" not in modules


def test_workers_die_with_a_killed_parent(tmp_path: Path) -> None:
    """Pool workers block on their queue forever when the parent dies; PR_SET_PDEATHSIG ends them."""
    if sys.platform != "linux" or shutil.which("sleep") is None:
        pytest.skip("Linux only")
    script = (
        "import os, sys, time\n"
        "from acp_migrate.engine import runner\n"
        "executor = runner._start_executor(2)\n"
        "pids = [executor.submit(os.getpid).result() for _ in range(8)]\n"
        "print(' '.join(map(str, sorted(set(pids)))), flush=True)\n"
        "time.sleep(60)\n"
    )
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    workers = [int(pid) for pid in process.stdout.readline().split()]
    assert workers
    process.kill()
    process.wait()
    for pid in workers:
        for _ in range(250):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            if Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z"):
                break  # dead, waiting for init to reap it
            time.sleep(0.02)
        else:
            os.kill(pid, 9)
            pytest.fail(f"worker {pid} outlived its parent")


def test_big_runs_import_libcst_once_for_every_parsing_worker(tmp_path: Path) -> None:
    """Screening workers only screen; candidates go to a pool forked from a server that
    imported LibCST, so no worker pays for its import (0.15 s of CPU) again, and the
    run's own process never imports it. The workers start near the bottom of their
    Python stack, however deep the run was called from (see _ParsePool._start_server)."""
    make_project(tmp_path / "project")
    records = tmp_path / "records"
    records.mkdir()
    script = (
        "import os, sys, traceback\n"
        "from acp_migrate.engine import runner\n"
        "runner.POOL_SCREENS_MIN_FILES = 1\n"
        "screen, process = runner._screen_batch, runner.process_file\n"
        "def record(kind):\n"
        f"    with open(os.path.join({str(records)!r}, f'{{kind}}-{{os.getpid()}}'), 'a') as out:\n"
        "        out.write(f\"{'libcst' in sys.modules},{os.getppid()},{len(traceback.extract_stack())}\\n\")\n"
        "def screen_batch(*args):\n"
        "    result = screen(*args)\n"
        "    record('screen')\n"
        "    return result\n"
        "def process_file(job, source=None):\n"
        "    record('parse')\n"
        "    return process(job, source)\n"
        "runner._screen_batch, runner.process_file = screen_batch, process_file\n"
        "runner._available_cores = lambda: 2\n"
        "def deep(levels):\n"
        f"    return deep(levels - 1) if levels else runner.run('check', [{str(tmp_path / 'project')!r}])\n"
        "result = deep(100)\n"
        "print(len(result.findings), 'libcst' in sys.modules, os.getpid())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    findings, libcst_here, pid = done.stdout.split()
    assert int(findings) >= 12 and libcst_here == "False"
    screeners = {path.name.split("-")[1] for path in records.glob("screen-*")}
    screened = [line for path in records.glob("screen-*") for line in path.read_text().split()]
    # (screeners call process_file too, for the files they can report on without parsing)
    parsers = [path for path in records.glob("parse-*") if path.name.split("-")[1] not in screeners]
    parsed = [line for path in parsers for line in path.read_text().split()]
    assert screeners and parsers
    assert {line.split(",")[0] for line in screened} == {"False"}  # no screening worker imported LibCST
    assert {line.split(",")[0] for line in parsed} == {"True"}  # every parsing worker had it from the start
    (server,) = {line.split(",")[1] for line in parsed}  # which they all were forked from
    assert server != pid
    assert max(int(line.split(",")[2]) for line in parsed) < 40


def test_workers_freeze_what_they_inherit_and_the_run_leaves_nothing_frozen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    executor = runner._start_executor(1)
    try:  # out of the collector's reach in the worker: no copy of the pages it shares
        assert executor.submit(gc.get_freeze_count).result() > 0
    finally:
        executor.shutdown()
    make_project(tmp_path / "project")
    monkeypatch.chdir(tmp_path / "project")
    monkeypatch.setattr(runner, "_available_cores", lambda: 2)
    assert run(Mode.CHECK, ["."]).findings
    assert gc.get_freeze_count() == 0


def _server_state(pid: int) -> str:
    """The process state letter of `pid` (`T`: stopped), or `gone`."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0]
    except FileNotFoundError:
        return "gone"


def _reaped(pid: int) -> bool:
    """Whether `pid`, a child, has ended within 10 s and been reaped (here or by the run)."""
    for _ in range(500):
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return True
        except ChildProcessError:
            return True
        time.sleep(0.02)
    return False


@pytest.fixture
def start_early_server():
    """Forks an early parse server here, as the program's entry does; returns its pid."""
    if sys.platform != "linux" or len(os.sched_getaffinity(0)) < 2:
        pytest.skip("the early server forks, on two cores or more")

    def start() -> int:
        early_server.start()
        assert early_server._waiting is not None
        return early_server._waiting.pid

    yield start
    early_server.discard()


@pytest.mark.parametrize("legacy", [True, False], ids=["candidates", "clean"])
def test_a_big_run_pauses_the_early_server_while_it_screens_then_takes_or_kills_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start_early_server, legacy: bool
) -> None:
    """Paused (SIGSTOP) while the workers screen, where it would slow a clean tree; the
    parse pool resumes it at the first candidate instead of forking a server; a run
    without candidates kills it. Either way it is reaped."""
    project = tmp_path / "project"
    make_project(project)
    if not legacy:
        for path in project.iterdir():
            if not path.name.startswith("clean"):
                path.unlink()
    monkeypatch.chdir(project)
    monkeypatch.setattr(runner, "_available_cores", lambda: 1)
    expected = run(Mode.CHECK, ["."])
    assert bool(expected.findings) is legacy

    states = tmp_path / "states"
    screen = runner._screen_batch

    @functools.wraps(screen)  # pickled by name: runner._screen_batch, this function
    def screen_batch(*args):
        with open(states, "a") as out:  # in a screening worker
            out.write(_server_state(early_parse_server))
        return screen(*args)

    monkeypatch.setattr(runner, "POOL_SCREENS_MIN_FILES", 1)
    monkeypatch.setattr(runner, "_available_cores", lambda: 2)
    monkeypatch.setattr(runner, "_screen_batch", screen_batch)
    monkeypatch.setattr(runner._ParsePool, "_fork_server", lambda pool: pytest.fail("forked a server"))
    early_parse_server = start_early_server()
    assert run(Mode.CHECK, ["."]) == expected
    assert set(states.read_text()) == {"T"}
    assert not early_server.waiting() and _reaped(early_parse_server)


def test_a_small_run_gives_even_one_candidate_to_the_early_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start_early_server
) -> None:
    """It is importing LibCST already: one candidate is worth it (without it, fewer
    than PARALLEL_MIN_FILES are analysed here, importing LibCST here). Not paused:
    a small run screens here, one core."""
    (tmp_path / "legacy.py").write_text(LEGACY_SNIPPETS[0])
    (tmp_path / "clean.py").write_text("VALUE = 1\n")
    monkeypatch.chdir(tmp_path)
    analysed_in = tmp_path / "analysed-in"
    analyze = runner.analyze_source

    def analyze_source(source: bytes, **kwargs):
        with open(analysed_in, "a") as out:
            out.write(f"{os.getpid()}\n")
        return analyze(source, **kwargs)

    monkeypatch.setattr(runner, "analyze_source", analyze_source)
    monkeypatch.setattr(runner, "_available_cores", lambda: 2)
    monkeypatch.setattr(runner._ParsePool, "_fork_server", lambda pool: pytest.fail("forked a server"))
    early_parse_server = start_early_server()
    assert _server_state(early_parse_server) != "T"
    result = run(Mode.CHECK, ["."])
    assert [f.path for f in result.findings] and {f.path for f in result.findings} == {"legacy.py"}
    assert str(os.getpid()) not in analysed_in.read_text().split()  # analysed in a worker of the server
    assert not early_server.waiting() and _reaped(early_parse_server)


def test_a_dead_early_server_costs_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start_early_server
) -> None:
    make_project(tmp_path / "project")
    monkeypatch.chdir(tmp_path / "project")
    monkeypatch.setattr(runner, "_available_cores", lambda: 1)
    expected = run(Mode.CHECK, ["."])
    early_parse_server = start_early_server()
    os.kill(early_parse_server, signal.SIGKILL)
    monkeypatch.setattr(runner, "_available_cores", lambda: 2)
    retried = []
    one_at_a_time = runner._process_one_at_a_time
    monkeypatch.setattr(runner, "_process_one_at_a_time", lambda jobs: retried.extend(jobs) or one_at_a_time(jobs))
    assert run(Mode.CHECK, ["."]) == expected
    assert len(retried) >= 13
    assert _reaped(early_parse_server)


@pytest.mark.parametrize(
    ("arguments", "early"),
    [(["check", "--isolated", "{folder}"], True), (["fix", "{file}"], False), (["rules"], False)],
)
def test_the_command_forks_the_early_server_only_over_folders(tmp_path: Path, arguments: list[str], early: bool) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "legacy.py").write_text(LEGACY_SNIPPETS[0])
    arguments = [a.format(folder=tmp_path / "folder", file=tmp_path / "folder" / "legacy.py") for a in arguments]
    script = (
        "import sys\n"
        "from acp_migrate.engine import early_server\n"
        "start = early_server.start\n"
        "def started():\n"
        "    print('EARLY', 'libcst' in sys.modules, flush=True)\n"
        "    start()\n"
        "early_server.start = started\n"
        f"sys.argv = ['acp-migrate', *{arguments!r}]\n"
        "from acp_migrate.__main__ import main\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode in (0, 1), done.stderr
    assert ("EARLY False" in done.stdout.splitlines()) is early, done.stdout


@pytest.mark.parametrize("screening", SCREENING)
def test_a_finished_run_does_not_wait_for_its_processes_but_a_stopped_one_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, screening: str
) -> None:
    """Once every outcome is in, the workers have nothing left to do: the report need
    not wait for them to exit. A run stopped early (Ctrl-C) waits, so that no worker is
    killed in the middle of a write."""
    monkeypatch.setattr(runner, "POOL_SCREENS_MIN_FILES", SCREENING[screening])
    monkeypatch.setattr(runner, "_available_cores", lambda: 2)
    make_project(tmp_path / "project")
    monkeypatch.chdir(tmp_path / "project")
    waits = []
    close = runner._ParsePool.close
    monkeypatch.setattr(runner._ParsePool, "close", lambda pool, *, wait=True: waits.append(wait) or close(pool, wait=wait))
    template = runner.FileJob(path="", display_path="", mode=Mode.CHECK)
    paths = sorted(str(path) for path in (tmp_path / "project").iterdir())

    assert len(list(runner.process_paths(paths, template, str(tmp_path / "project")))) == len(paths)
    assert waits == [False]
    outcomes = runner.process_paths(paths, template, str(tmp_path / "project"))
    next(outcomes)
    outcomes.close()  # what Ctrl-C does to the run's loop
    assert waits == [False, True]
