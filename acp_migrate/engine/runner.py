"""Run one mode (`check`, `diff`, `fix`) over the PATH arguments and collect per-file outcomes.

Each file is handled by `process_file`, a top-level function of a picklable job; a
run is one job template applied to the paths discovery finds (`process_paths`).
With many files, workers screen them in batches while the walk goes on; the files
the byte prefilter passes (the only ones LibCST parses) go to a pool of processes,
one per core, forked from a process that imported LibCST for them; see the comment
above `PARALLEL_MIN_FILES`.
"""

from __future__ import annotations

import functools
import gc
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import chain, count, islice

from acp_migrate.engine import code_cache, early_server
from acp_migrate.engine.codemod import analyze_source, check_decodable, preload_analysis
from acp_migrate.engine.discover import DiscoveryOptions, PathError, iter_files, under
from acp_migrate.engine.files import (
    FileAccessError,
    describe_os_error,
    read_source,
    write_atomic,
)
from acp_migrate.engine.modules import file_system_modules
from acp_migrate.engine.prefilter import may_contain_legacy
from acp_migrate.findings import Finding, SourceError
from acp_migrate.settings import DEFAULT_SETTINGS, ProjectFacts, RuleSettings


class Mode(StrEnum):
    CHECK = "check"
    DIFF = "diff"
    FIX = "fix"


@dataclass(frozen=True, slots=True)
class FileError:
    """A file or PATH that could not be analysed; `path` is the display path."""

    path: str
    reason: str


@dataclass(frozen=True, slots=True)
class FileJob:
    path: str  # absolute, for I/O
    display_path: str  # relative to the current directory, for output and findings
    mode: Mode
    settings: RuleSettings = DEFAULT_SETTINGS
    report_unused_suppressions: bool = False
    project: ProjectFacts | None = None  # None: decided after the run (engine/project.py)


@dataclass(frozen=True, slots=True)
class CompanionFile:
    """A file a fixed source needs beside it (the vendored runtime shim), written by fix
    before the source. `original`: its bytes before (None: new); `content` is kept in
    diff mode only."""

    path: str  # display path
    path_in_folder: str = ""  # relative to the fixed file's folder
    original: bytes | None = None
    content: bytes | None = None
    written: bool = False


@dataclass(slots=True)  # not frozen: a frozen __init__ costs 4x, and a run makes one per file
class FileOutcome:
    """What happened to one file (nothing changes it once made).

    `changed`: fix would rewrite it, or did (see `written`); not computed in check mode.
    The bytes `original` and `fixed_source` are kept only in diff mode, to show the change.
    """

    path: str
    findings: list[Finding] = field(default_factory=list)
    remaining: list[Finding] = field(default_factory=list)
    changed: bool = False
    written: bool = False
    original: bytes | None = None
    fixed_source: bytes | None = None
    encoding: str = "utf-8"
    error: str | None = None
    # Places passing the legacy field to a schema factory, and why fix leaves each.
    callers: list[tuple[Finding, str | None]] = field(default_factory=list)
    # Its result waits for the run's decision about the project (not written yet).
    deferred: bool = False
    # Files fix writes (or diff shows) beside it for it: the vendored runtime shim.
    companions: list[CompanionFile] = field(default_factory=list)
    # Not read, without failing the run: its bytes do not decode, and hold no legacy token.
    warning: str | None = None


@dataclass(slots=True)
class RunResult:
    mode: Mode
    files: list[FileOutcome] = field(default_factory=list)
    path_errors: list[FileError] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        return sorted((f for outcome in self.files for f in outcome.findings), key=Finding.sort_key)

    @property
    def remaining(self) -> list[Finding]:
        return sorted((f for outcome in self.files for f in outcome.remaining), key=Finding.sort_key)

    @property
    def companions(self) -> list[CompanionFile]:
        """The files written (fix) or to be written (diff) beside the fixed ones, once each."""
        seen: dict[str, CompanionFile] = {}
        for outcome in self.files:
            for companion in outcome.companions:
                seen.setdefault(companion.path, companion)
        return sorted(seen.values(), key=lambda companion: companion.path)

    @property
    def changed_files(self) -> list[FileOutcome]:
        return [outcome for outcome in self.files if outcome.changed]

    @property
    def errors(self) -> list[FileError]:
        file_errors = [FileError(path=o.path, reason=o.error) for o in self.files if o.error is not None]
        return sorted(self.path_errors + file_errors, key=lambda e: (e.path, e.reason))

    @property
    def warnings(self) -> list[FileError]:
        """Files not read that hold nothing to migrate (see FileOutcome.warning): on
        stderr, not in the exit code."""
        warned = (FileError(path=o.path, reason=o.warning) for o in self.files if o.warning is not None)
        return sorted(warned, key=lambda e: (e.path, e.reason))

    def exit_code(self) -> int:
        """2 if anything could not be analysed; else 1 if there is something to report; else 0."""
        if self.errors:
            return 2
        if self.mode is Mode.CHECK:
            return 1 if any(o.findings for o in self.files) else 0
        if self.mode is Mode.DIFF:
            return 1 if self.changed_files else 0
        # A fixable finding left in `remaining` is what fix did and lists for review.
        return 1 if any(not f.fixable for o in self.files for f in o.remaining) else 0


def display_path(path: str, cwd: str | None = None) -> str:
    """`path` relative to the current directory; absolute when that is impossible (other drive)."""
    base = cwd if cwd is not None else os.getcwd()
    inside = under(path, base)
    if inside is not None:
        return inside
    directory, name = os.path.split(path)
    if not name:
        return _relative_folder(path, base)
    folder = _relative_folder(directory or os.curdir, base)
    if folder == os.curdir:
        return name
    return folder + name if folder.endswith(os.sep) else folder + os.sep + name


@functools.lru_cache(maxsize=1024)
def _relative_folder(directory: str, base: str) -> str:
    # Once per folder: os.path.relpath costs more than screening a file, and a walk
    # outside the current directory (an absolute PATH in CI) asks for every file.
    try:
        return os.path.relpath(directory, base)
    except ValueError:
        return os.path.abspath(directory)


def run(
    mode: Mode | str,
    paths: Sequence[str | os.PathLike[str]] = (),
    *,
    settings: RuleSettings = DEFAULT_SETTINGS,
    discovery_options: DiscoveryOptions | None = None,
    report_unused_suppressions: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> RunResult:
    """Discover the files under `paths` (default `.`) and process each one; never raises per file.

    `progress(done, total)` is called after each file, and every 1024 files the walk
    finds: the total grows until the walk ends.
    """
    mode = Mode(mode)
    cwd = os.getcwd()
    path_errors: list[PathError] = []
    found = 0
    template = FileJob(
        path="", display_path="", mode=mode, settings=settings, report_unused_suppressions=report_unused_suppressions
    )

    outcomes: list[FileOutcome] = []

    def discovered() -> Iterator[str]:
        nonlocal found
        for path in iter_files(paths, discovery_options, path_errors):
            found += 1
            if progress is not None and found % 1024 == 0:
                progress(len(outcomes), found)  # a big run's outcomes come after its walk
            yield path

    try:
        for outcome in process_paths(discovered(), template, cwd):
            outcomes.append(outcome)
            if progress is not None:
                # The walk may still be going on: the total grows until it ends.
                progress(len(outcomes), found)
    finally:
        early_server.discard()  # not needed: no candidate
    if any(outcome.deferred for outcome in outcomes):
        outcomes = _decide_and_redo(outcomes, template, paths, discovery_options, cwd)
    return RunResult(
        mode=mode,
        files=sorted(outcomes, key=lambda outcome: outcome.path),
        path_errors=sorted(
            (FileError(path=display_path(e.path, cwd), reason=e.reason) for e in path_errors),
            key=lambda e: (e.path, e.reason),
        ),
    )


def _decide_and_redo(
    outcomes: list[FileOutcome],
    template: FileJob,
    paths: Sequence[str | os.PathLike[str]],
    discovery_options: DiscoveryOptions | None,
    cwd: str,
) -> list[FileOutcome]:
    """Make the project-wide decision (engine/project.py), then analyse (and write)
    again the files that waited for it; the other outcomes stand."""
    from acp_migrate.engine.project import decide, project_root

    absolute = {os.path.abspath(os.path.join(cwd, o.path)): o for o in outcomes}
    facts = decide(
        root=project_root(list(paths) or ["."], discovery_options),
        run_paths=[os.path.abspath(p) for p in (paths or ["."])],
        run_files={path: o.callers for path, o in absolute.items()},
        settings=template.settings,
        options=discovery_options,
        cwd=cwd,
    )
    redone = {
        path: process_file(replace(template, path=path, display_path=o.path, project=facts))
        for path, o in absolute.items()
        if o.deferred
    }
    return [redone.get(path, o) for path, o in absolute.items()]


def process_file(job: FileJob, source: bytes | None = None) -> FileOutcome:
    """Read, analyse and (in fix mode) write one file. Every failure becomes `error`.

    `source`: the file's bytes, when the caller has just read them.
    """
    try:
        if source is None:
            source = read_source(job.path)
        # check reports only: the fixed source is not worth computing.
        analysis = analyze_source(
            source,
            path=job.display_path,
            fix=job.mode is not Mode.CHECK,
            settings=job.settings,
            report_unused_suppressions=job.report_unused_suppressions,
            modules=file_system_modules(job.path),
            project=job.project,
        )
    except (FileAccessError, SourceError) as exc:
        return FileOutcome(path=job.display_path, error=exc.reason)
    except OSError as exc:
        return FileOutcome(path=job.display_path, error=describe_os_error(exc))
    except Exception as exc:  # a bug in one rule must not stop the run
        return FileOutcome(path=job.display_path, error=_internal_error(exc))

    fixed = analysis.fixed_source if analysis.fixed_source != source else None
    outcome = FileOutcome(
        path=job.display_path,
        findings=sorted(analysis.findings, key=Finding.sort_key),
        remaining=sorted(analysis.remaining, key=Finding.sort_key),
        changed=fixed is not None,
        encoding=analysis.encoding,
        callers=analysis.callers,
        deferred=analysis.needs_project and job.project is None,
        warning=analysis.warning,
    )
    if fixed is None or job.mode is Mode.CHECK or outcome.deferred:
        return outcome
    try:
        companions = companions_to_write(job.path, job.display_path, analysis.companions)
    except FileAccessError as exc:
        return _unwritten(outcome, exc.reason)
    if job.mode is Mode.DIFF:
        return replace(outcome, original=source, fixed_source=fixed, companions=[c for _, c in companions])
    try:
        # The companions first: the fixed source never imports a file that is not there.
        for target, companion in companions:
            content = analysis.companions[companion.path_in_folder]
            write_atomic(target, content, create=companion.original is None)
        write_atomic(job.path, fixed)
    except FileAccessError as exc:
        return _unwritten(outcome, exc.reason)
    except Exception as exc:
        return _unwritten(outcome, _internal_error(exc))
    return replace(outcome, written=True, companions=[replace(c, written=True, content=None) for _, c in companions])


def companions_to_write(
    path: str, display_path: str, wanted: dict[str, bytes]
) -> list[tuple[str, CompanionFile]]:
    """(absolute path, what is written there) for each file the fixed source at `path`
    needs beside it that is missing or an older vendored copy; one holding those bytes
    already is left. Raises FileAccessError when another file of that name is there:
    never replaced."""
    from acp_migrate.engine.vendor import is_vendored

    found = []
    for relative, content in sorted(wanted.items()):
        target = os.path.normpath(os.path.join(os.path.dirname(path), relative))
        shown = os.path.normpath(os.path.join(os.path.dirname(display_path), relative))
        try:
            with open(target, "rb") as file:
                existing: bytes | None = file.read()
        except FileNotFoundError:
            existing = None
        except OSError as exc:
            raise FileAccessError(f"cannot read {shown}: {describe_os_error(exc)}") from None
        if existing == content:
            continue
        if existing is not None and not is_vendored(existing):
            raise FileAccessError(
                f"{shown} exists and is not acp-migrate's vendored runtime: fix will not replace it"
                " (rename it, or set `runtime-import` to a module to import the shim from)"
            )
        found.append((target, CompanionFile(path=shown, path_in_folder=relative, original=existing, content=content)))
    return found


def _unwritten(outcome: FileOutcome, reason: str) -> FileOutcome:
    # The file is untouched: it is an error, not a fix with leftovers.
    return replace(outcome, error=reason, changed=False, remaining=[])


def _internal_error(exc: Exception) -> str:
    detail = str(exc).splitlines()[0] if str(exc) else ""
    return f"internal error: {type(exc).__name__}: {detail}" if detail else f"internal error: {type(exc).__name__}"


# Parallelism. Screening a file (read, prefilter) costs microseconds; parsing and
# rewriting one costs milliseconds. A big run sends bare paths in batches to a pool of
# worker processes, one per core, that screen them while the walk goes on (on a clean
# tree reading and screening are the work); a small run is screened here. The files
# the prefilter passes go to a parse pool (_ParsePool) as soon as a big run meets
# one, or a small run has PARALLEL_MIN_FILES of them: fewer stay here, so a small run
# never pays for starting workers (nor, when clean, for importing LibCST).
PARALLEL_MIN_FILES = 4
POOL_SCREENS_MIN_FILES = 512
BATCH_FILES = 256


def process_paths(
    paths: Iterable[str], template: FileJob, cwd: str, workers: int | None = None
) -> Iterator[FileOutcome]:
    """`process_file` over a `template` job for each of `paths` (shown relative to
    `cwd`), one outcome each, in completion order (sort them).

    `paths` may be a stream (a walk going on): the first POOL_SCREENS_MIN_FILES decide
    how the run goes. A big run sends its workers bare paths: this process only walks."""
    workers = _available_cores() if workers is None else workers
    paths = iter(paths)
    head = list(islice(paths, max(POOL_SCREENS_MIN_FILES, PARALLEL_MIN_FILES)))
    if workers >= 2 and len(head) >= POOL_SCREENS_MIN_FILES:
        yield from _process_in_batches(chain(head, paths), template, cwd, workers)
    else:
        jobs = (replace(template, path=path, display_path=display_path(path, cwd)) for path in chain(head, paths))
        yield from process_all(jobs, workers)


def process_all(jobs: Iterable[FileJob], workers: int | None = None) -> Iterator[FileOutcome]:
    """`process_file` over `jobs`, one outcome each, in completion order (sort them): the
    files the prefilter clears here, the others in a pool once there are enough."""
    workers = _available_cores() if workers is None else workers
    jobs = iter(jobs)
    head = list(islice(jobs, PARALLEL_MIN_FILES))
    if workers < 2 or (len(head) < PARALLEL_MIN_FILES and not early_server.waiting()):
        yield from map(process_file, chain(head, jobs))
    else:
        yield from _screen_here(chain(head, jobs), workers)


def _screen_here(jobs: Iterable[FileJob], workers: int) -> Iterator[FileOutcome]:
    pool = _ParsePool(workers, start_at=PARALLEL_MIN_FILES)
    finished = False
    try:
        yield from _screen(jobs, lambda job: pool.add([job]))
        yield from pool.outcomes()
        finished = True
    finally:
        pool.close(wait=not finished)


def _screen(jobs: Iterable[FileJob], candidate: Callable[[FileJob], None]) -> Iterator[FileOutcome]:
    """Process here the files the prefilter clears (or that cannot be read: process_file
    says why); hand the others to `candidate`, to be re-read where they are analysed
    (the bytes a worker writes over are the bytes it analysed)."""
    for job in jobs:
        need, source = _screen_one(job.path, job.report_unused_suppressions)
        if need is _PARSE:
            candidate(job)
        elif need is _NOTHING:
            yield FileOutcome(path=job.display_path)
        else:
            yield process_file(job, source)


_PARSE, _NOTHING, _PROCESS_HERE = "parse", "nothing", "process here"


def _screen_one(path: str, report_unused_suppressions: bool) -> tuple[str, bytes | None]:
    """Read one file and say what it needs, with its bytes: parsing (the prefilter
    passes it), nothing (clean: without process_file's cost per file, as a tree holds
    thousands), or process_file here (unreadable or undecodable: it says why; or unused
    suppressions are asked for)."""
    try:
        source = read_source(path)
    except Exception:
        return _PROCESS_HERE, None  # process_file reads it again and says why
    if may_contain_legacy(source):
        return _PARSE, source
    if report_unused_suppressions:
        return _PROCESS_HERE, source
    try:
        check_decodable(source)
    except SourceError:
        return _PROCESS_HERE, source
    return _NOTHING, source


def _screen_batch(
    template: FileJob, paths: Sequence[str], cwd: str
) -> tuple[list[str], list[FileOutcome], list[tuple[str, str]]]:
    """(display paths of the files with nothing to report, the outcomes of the others
    that need no parse, the (path, display path) of the candidates).

    Paths come bare, for one `template`, and clean files go back as bare display paths:
    on a clean tree, pickling thousands of jobs and outcomes would cost more than
    screening the files. Candidates are parsed elsewhere (see _process_in_batches)."""
    clean: list[str] = []
    other: list[FileOutcome] = []
    candidates: list[tuple[str, str]] = []
    for path in paths:
        display = display_path(path, cwd)
        need, source = _screen_one(path, template.report_unused_suppressions)
        if need is _PARSE:
            candidates.append((path, display))
            continue
        if need is _NOTHING:
            clean.append(display)
            continue
        outcome = process_file(replace(template, path=path, display_path=display), source)
        if outcome.findings or outcome.remaining or outcome.changed or outcome.error is not None or outcome.warning:
            other.append(outcome)
        else:
            clean.append(outcome.path)
    return clean, other, candidates


def _process_in_batches(paths: Iterable[str], template: FileJob, cwd: str, workers: int) -> Iterator[FileOutcome]:
    """Screen in batches sent to a pool while the walk goes on; the candidates go to a
    parse pool as soon as their batch is screened, so that its server imports LibCST
    while the walk and the screening go on."""
    from concurrent.futures import as_completed
    from concurrent.futures.process import BrokenProcessPool

    executor = _start_executor(workers)
    early_server.pause()  # until a candidate needs it: the screening has the cores
    pending: dict = {}  # Future -> its batch of paths
    unfinished: list[str] = []  # a worker died: see _ParsePool.outcomes
    parse_pool = _ParsePool(workers, start_at=1)
    screened: deque = deque()  # futures done, appended by the executor's thread
    forwarded: set = set()  # futures whose candidates went to the parse pool

    def job(path: str, display: str) -> FileJob:
        return replace(template, path=path, display_path=display)

    def forward_candidates(future) -> None:
        if future in forwarded or future.cancelled() or future.exception() is not None:
            return
        forwarded.add(future)
        candidates = future.result()[2]
        if candidates:
            parse_pool.add([job(path, display) for path, display in candidates])

    def outcomes_of(future) -> Iterator[FileOutcome]:
        batch = pending.pop(future)
        try:
            clean, other, _ = future.result()
        except BrokenProcessPool:
            unfinished.extend(batch)
        except Exception as exc:  # the outcomes could not come back (pickling)
            yield from (FileOutcome(path=display_path(path, cwd), error=_internal_error(exc)) for path in batch)
        else:
            yield from map(FileOutcome, clean)
            yield from other
            forward_candidates(future)

    finished = False
    try:
        for batch in _chunks(paths, BATCH_FILES):
            try:
                future = executor.submit(_screen_batch, template, batch, cwd)
            except BrokenProcessPool:
                unfinished.extend(batch)
                continue
            pending[future] = batch
            future.add_done_callback(screened.append)
            while screened:
                forward_candidates(screened.popleft())
        # Outcomes wait for the walk's end: the walk feeds the workers, which would
        # wait for it while this process turned their results into outcomes.
        for future in as_completed(list(pending)):
            yield from outcomes_of(future)
        yield from parse_pool.outcomes()
        finished = True
    finally:
        # Once every outcome is in, the workers have nothing left to do and end on their
        # own: waiting for them would only delay the report. Stopped early (Ctrl-C),
        # wait, so that no worker is killed in the middle of a write.
        executor.shutdown(wait=not finished, cancel_futures=True)
        parse_pool.close(wait=not finished)
    # Screen the files of a dead worker's batches again here; the candidates among them
    # go one at a time to a worker of their own, so only a file that kills it is lost.
    candidates: list[FileJob] = []
    retried = (job(path, display_path(path, cwd)) for path in sorted(unfinished))
    yield from _screen(retried, candidates.append)
    yield from _process_one_at_a_time(candidates)


def _chunks(items: Iterable[str], size: int) -> Iterator[list[str]]:
    chunk: list[str] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


class _ParsePool:
    """Runs `process_file` in worker processes once it has `start_at` jobs, else here.

    The workers are forked from a server process (serve_parses) that imports LibCST
    and the rules first: the workers share one import (0.05 s of CPU, 0.12 s with a
    cold code_cache), which goes on while this process walks and screens, and this
    process never needs LibCST. The
    server is the one forked at start-up (early_server), or forked from this process at
    the first job. It passes the jobs to its workers and their outcomes back, as they come."""

    def __init__(self, workers: int, *, start_at: int) -> None:
        self._workers = workers
        # A server already importing LibCST is worth even one job.
        self._start_at = 1 if early_server.waiting() else start_at
        self._waiting: list[FileJob] = []
        self._numbers = count()
        self._jobs = None  # to the server, None until it is started
        self._answers = None  # from the server
        self._wait_for_server: Callable[[], object] = lambda: None
        self._sent: dict[int, FileJob] = {}  # jobs by number, until their outcome is back

    def add(self, jobs: list[FileJob]) -> None:
        self._waiting += jobs
        if self._jobs is None and len(self._waiting) < self._start_at:
            return
        if self._jobs is None:
            self._start_server()
        numbered = [(next(self._numbers), job) for job in self._waiting]
        self._sent.update(numbered)
        try:
            self._jobs.send(numbered)
        except OSError:
            pass  # the server died: these jobs stay unanswered (see outcomes)
        self._waiting = []

    def _start_server(self) -> None:
        from multiprocessing.connection import Connection

        early = early_server.take()
        if early is None:
            self._fork_server()
            return
        import threading

        self._jobs = Connection(early.jobs, readable=False)
        self._answers = Connection(early.answers, writable=False)
        # Reaped in the background, as a forked server is by the thread that forked it.
        reaper = threading.Thread(target=early_server.reap, args=(early.pid,), daemon=True)
        reaper.start()
        self._wait_for_server = reaper.join

    def _fork_server(self) -> None:
        import multiprocessing
        import threading

        # fork: the server starts in milliseconds with this process's modules imported.
        context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
        jobs, self._jobs = context.Pipe(duplex=False)
        self._answers, answers = context.Pipe(duplex=False)
        server = context.Process(
            target=serve_parses,
            args=(jobs, answers, os.getpid(), self._workers, (self._jobs, self._answers)),
            name="acp-migrate parse server",
        )

        forked = threading.Event()

        def start_and_wait() -> None:
            try:
                server.start()
            finally:
                jobs.close()  # the server's ends: here; if the fork failed, the parent reads EOF
                answers.close()
                forked.set()
            server.join()

        # A forked process keeps the Python stack it was forked from. From a new thread,
        # the server and the workers it forks start near the bottom of theirs: CPython
        # 3.11 frees a 16 KB chunk of frame memory whenever the stack shrinks below it,
        # and LibCST's recursion, started deep, mapped and unmapped one 350 times per
        # file (a second of system time when fixing 500 files). The thread lives as
        # long as the server: the kernel's parent-death signal follows the thread that
        # forked (see _worker_init). This thread waits for the fork: an import going on
        # here would leave its lock held in the server, which imports LibCST.
        thread = threading.Thread(target=start_and_wait, name="acp-migrate parse server", daemon=True)
        thread.start()
        forked.wait()
        self._wait_for_server = thread.join

    def outcomes(self) -> Iterator[FileOutcome]:
        if self._jobs is None:
            yield from map(process_file, self._waiting)
            return
        crashed: list[FileJob] = []
        while self._sent:
            try:
                number, outcome = self._answers.recv()
            except (EOFError, OSError):
                break  # the server died: what it did not answer is retried below
            job = self._sent.pop(number)
            if outcome is None:
                crashed.append(job)
            else:
                yield outcome
        # A worker that dies (a native crash in the parser) takes the pool with it: retry
        # the files it did not analyse one at a time, so only the file that kills a worker is lost.
        crashed += self._sent.values()
        self._sent.clear()
        yield from _process_one_at_a_time(sorted(crashed, key=lambda job: job.path))

    def close(self, *, wait: bool = True) -> None:
        """Let the server end (it reads EOF: see serve_parses); `wait` for it to."""
        if self._jobs is not None:
            self._jobs.close()
            self._answers.close()
            if wait:
                self._wait_for_server()


def serve_parses(jobs, answers, parent: int, workers: int | None = None, inherited: Sequence = ()) -> None:
    """The parse pool's server: import LibCST, fork the workers, pass them the jobs
    the `jobs` connection brings, numbered, and send back on `answers` (number,
    outcome) for each, or (number, None) when its worker died (the parent retries it
    alone). The parent closes its end of `jobs` when it has every answer, or when it
    stops early (Ctrl-C): then the jobs not started are dropped. `inherited`: the
    parent's ends, forked with the server, to close (the parent's closing its own
    must end `recv` here)."""
    import queue
    import threading
    from concurrent.futures.process import BrokenProcessPool

    for connection in inherited:
        connection.close()
    _worker_init(parent)
    gc.disable()  # importing LibCST makes 80,000 objects and no garbage: collecting costs 5 ms
    preload_analysis()
    gc.freeze()  # LibCST's objects, which the workers inherit: see _worker_init
    gc.enable()
    code_cache.save()  # what importing LibCST compiled (nothing, once saved)
    executor = _start_executor(_available_cores() if workers is None else workers)
    executor.submit(int)  # forks the workers now, while this process has one thread
    outgoing: queue.SimpleQueue = queue.SimpleQueue()

    def send_answers() -> None:
        # A thread of its own: a send blocks while the parent walks (it reads the
        # outcomes after), and must not block the executor's thread, which runs `answer`.
        while (answer := outgoing.get()) is not None:
            try:
                answers.send(answer)
            except OSError:
                pass  # the parent stopped listening

    def answer(number: int, job: FileJob, future) -> None:
        if future.cancelled():
            return  # the parent is gone
        try:
            outgoing.put((number, future.result()))
        except BrokenProcessPool:
            outgoing.put((number, None))
        except Exception as exc:  # the outcome could not come back (pickling)
            outgoing.put((number, FileOutcome(path=job.display_path, error=_internal_error(exc))))

    sender = threading.Thread(target=send_answers)
    sender.start()
    try:
        while True:
            for number, job in jobs.recv():
                try:
                    executor.submit(process_file, job).add_done_callback(functools.partial(answer, number, job))
                except BrokenProcessPool:
                    outgoing.put((number, None))
    except (EOFError, OSError):  # the parent closed its end
        pass
    executor.shutdown(wait=True, cancel_futures=True)
    outgoing.put(None)
    sender.join()


def _process_one_at_a_time(jobs: Sequence[FileJob]) -> Iterator[FileOutcome]:
    from concurrent.futures.process import BrokenProcessPool

    executor = None
    try:
        for job in jobs:
            if executor is None:
                executor = _start_executor(1)
            try:
                yield executor.submit(process_file, job).result()
            except BrokenProcessPool:
                yield FileOutcome(path=job.display_path, error="internal error: the analysis crashed its process")
                executor.shutdown(wait=True)
                executor = None
    finally:
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


def _start_executor(workers: int):
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # fork: workers start in milliseconds with this process's modules already imported.
    context = multiprocessing.get_context("fork") if sys.platform == "linux" else None
    return ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_init, initargs=(os.getpid(),))


def _worker_init(parent: int) -> None:
    import signal

    # Ctrl-C reaches every process of the terminal's group, and a cancelled CI job's
    # SIGTERM often does: only the parent stops the run (it cancels what is queued; a
    # worker ends its file, so no write is cut short). A worker interrupted inside a
    # queue would leave its lock held, and the run hanging.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    # What the worker inherits (LibCST, for a parse pool) lives as long as it does: out
    # of the collector's reach, collections are cheaper and do not copy every page the
    # fork shares (0.05 s of a 0.5 s check). Freezing moves lists, it touches no object.
    gc.freeze()
    # A pool worker outlives a parent killed with SIGKILL, blocked on its task queue
    # forever; on Linux ask the kernel to kill it with its parent instead.
    if sys.platform == "linux":
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)


def _available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
