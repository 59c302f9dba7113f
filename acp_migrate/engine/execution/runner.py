"""Run one mode (`check`, `diff`, `fix`) over the PATH arguments and collect per-file outcomes.

The execution side of the engine: discover the files, read them, hand each to the
analysis (`engine/codemod.analyze_source`, the one entry into it), in worker processes
for a big run (`engine/execution/pool.py`); in fix, once every file is analysed and
the project decided, write every result in one step (`_write_together`). Each file is handled by
`process_file`, a top-level function of a picklable job; a run is one job template
applied to the paths discovery finds (`process_paths`).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import chain

from acp_migrate.engine.analysis import analyze_source, needs_libcst
from acp_migrate.engine.execution.discover import DiscoveryOptions, PathError, iter_files, under
from acp_migrate.engine.execution.files import (
    BurstCut,
    FileAccessError,
    Unchanged,
    WriteBatch,
    describe_os_error,
    read_source,
    remove_leftovers,
)
from acp_migrate.engine.execution.journal import Journal, finish_killed_run
from acp_migrate.engine.execution.modules import file_system_modules
from acp_migrate.engine.execution.pool import WorkerDied, available_cores, run_in_workers, working_on
from acp_migrate.engine.execution.postcondition import checked
from acp_migrate.findings import Finding, SourceError
from acp_migrate.results import CompanionFile, FileError, FileOutcome, Mode, RunResult
from acp_migrate.settings import DEFAULT_SETTINGS, ProjectFacts, RuleSettings

__all__ = [
    "FileJob",
    "StoppedRun",
    "companions_to_write",
    "display_path",
    "process_file",
    "process_paths",
    "run",
    "write_roots",
]


@dataclass(slots=True)  # not frozen (never changed, though): a run makes one per file
class FileJob:
    path: str  # absolute, for I/O
    display_path: str  # relative to the current directory, for output and findings
    mode: Mode
    settings: RuleSettings = DEFAULT_SETTINGS
    report_unused_suppressions: bool = False
    project: ProjectFacts | None = None  # None: decided after the run (engine/execution/project.py)
    roots: tuple[str, ...] | None = None  # the folders fix may write in (`write_roots`); None: anywhere

    def at(self, path: str, cwd: str) -> FileJob:
        """This job for the file at `path`, shown relative to `cwd`."""
        return FileJob(
            path,
            display_path(path, cwd),
            self.mode,
            self.settings,
            self.report_unused_suppressions,
            self.project,
            self.roots,
        )


class StoppedRun(KeyboardInterrupt):
    """A `fix` stopped by Ctrl-C or SIGTERM: `written`, the files it wrote (as shown),
    none or all of the run's, as its writes are one burst that a stop waits for."""

    def __init__(self, written: Sequence[str]) -> None:
        super().__init__()
        self.written = tuple(written)


def write_roots(paths: Sequence[str | os.PathLike[str]], options: DiscoveryOptions | None) -> tuple[str, ...]:
    """The folders a run over `paths` may write in: the project's (its configuration's
    folder, else the nearest above the first path holding `.git` or `pyproject.toml`)
    and each PATH argument's (a file's folder, and its target's for a symlink given
    explicitly). A file whose real path leaves them is not written."""
    from acp_migrate.engine.execution.project import project_root

    roots = [project_root(list(paths) or ["."], options)]
    for path in paths or ["."]:
        absolute = os.path.abspath(path)
        if os.path.isdir(absolute):
            roots.append(absolute)
        else:
            roots += [os.path.dirname(absolute), os.path.dirname(os.path.realpath(absolute))]
    return tuple(dict.fromkeys(os.path.realpath(root) for root in roots))


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
    workers: int | None = None,
) -> RunResult:
    """Discover the files under `paths` (default `.`) and process each one; never raises per file.

    `workers`: processes for a big run (default: one per core; 1: all here).

    `progress(done, total)` is called after each file, and every 1024 files the walk
    finds: the total grows until the walk ends.
    """
    mode = Mode(mode)
    cwd = os.getcwd()
    path_errors: list[PathError] = []
    found = 0
    roots = write_roots(paths, discovery_options)
    template = FileJob(
        path="",
        display_path="",
        mode=mode,
        settings=settings,
        report_unused_suppressions=report_unused_suppressions,
        roots=roots if mode is Mode.FIX else None,
    )

    outcomes: list[FileOutcome] = []

    leftovers: list[str] | None = [] if mode is Mode.FIX else None  # check and diff write nothing

    def discovered() -> Iterator[str]:
        nonlocal found
        for path in iter_files(paths, discovery_options, path_errors, leftovers):
            found += 1
            if progress is not None and found % 1024 == 0:
                progress(len(outcomes), found)  # a big run's outcomes come after its walk
            yield path

    written: list[str] = []
    try:
        # A fix killed in its burst left a journal (journal.py): the tree is whole again first.
        show = functools.partial(display_path, cwd=cwd)
        finished = list(written) if finish_killed_run(roots[0], roots, show, written, write=mode is Mode.FIX) else None
        # Closed here when a stop interrupts this loop, not whenever the traceback lets go of
        # it: a pool still working waits for its workers' current files (pool.py).
        with contextlib.closing(process_paths(discovered(), template, cwd, workers)) as processed:
            for outcome in processed:
                outcomes.append(outcome)
                if len(outcomes) == 1:
                    _phase("analysis")
                if progress is not None:
                    # The walk may still be going on: the total grows until it ends.
                    progress(len(outcomes), found)
        facts = None
        if any(outcome.deferred for outcome in outcomes):
            outcomes, facts = _decide_and_redo(outcomes, template, paths, discovery_options, cwd)
        if mode is Mode.FIX:
            outcomes = _write_together(outcomes, template.roots, cwd, written)
            outcomes = [_read_back(outcome, template, cwd, facts) for outcome in outcomes]
            outcomes += _tests_left_behind(outcomes, template, paths, discovery_options, cwd)
    except KeyboardInterrupt:
        if mode is not Mode.FIX:
            raise
        raise StoppedRun(written) from None
    if leftovers:
        remove_leftovers(leftovers)  # a killed run's: once this run's writes are done
    return RunResult(
        mode=mode,
        finished=finished,
        files=sorted(outcomes, key=lambda outcome: outcome.path),
        path_errors=sorted(
            (FileError(path=display_path(e.path, cwd), reason=e.reason) for e in path_errors),
            key=lambda e: (e.path, e.reason),
        ),
    )


def _phase(name: str) -> None:
    """Where a test stops a run at a phase (`analysis`, `decision`, `staging`, `burst`):
    with ACP_MIGRATE_PHASES naming a folder holding a FIFO of that name, the run waits
    there until the test has sent its signal and closed the FIFO."""
    folder = os.environ.get("ACP_MIGRATE_PHASES")
    if folder and os.path.exists(os.path.join(folder, name)):
        with open(os.path.join(folder, name), "rb") as fifo:
            fifo.read()


def _write_together(
    outcomes: list[FileOutcome], roots: tuple[str, ...] | None, cwd: str, written: list[str]
) -> list[FileOutcome]:
    """Write the run's fixed files, their companions and deletions as one step: all staged
    (nothing is written if one cannot be: each is then an error), then renamed in one
    burst (files.WriteBatch), companions first, so no fixed source imports a missing
    file. `written` gets each file written, as shown. A rename failing cuts the burst:
    the files not renamed are left to the next fix (its journal)."""
    to_write = [o for o in outcomes if o.fixed_source is not None and o.error is None]
    if not to_write:
        return outcomes
    writing = {id(o) for o in to_write}  # (outcomes compare by value: bytes and all)
    written_before = len(written)
    companions = {c.path: c for o in to_write for c in o.companions}

    def absolute(shown: str) -> str:
        return os.path.normpath(os.path.join(cwd, shown))

    try:
        with WriteBatch(roots, Journal(roots[0]) if roots else None) as batch:
            for companion in companions.values():
                assert companion.content is not None
                batch.stage(
                    absolute(companion.path),
                    companion.content,
                    create=companion.original is None,
                    expect=Unchanged(companion.original),
                    shown=companion.path,
                )
            for index, outcome in enumerate(to_write):
                if outcome.deleted:
                    batch.stage_deletion(absolute(outcome.path), expect=Unchanged(outcome.original), shown=outcome.path)
                else:
                    batch.stage(
                        absolute(outcome.path),
                        outcome.fixed_source,
                        expect=Unchanged(outcome.original),
                        shown=outcome.path,
                    )
                if index == 0:
                    _phase("staging")
            batch.commit(written, after_first=lambda: _phase("burst"))
    except BurstCut as exc:
        renamed = set(written[written_before:])
        return [(_as_written(o) if o.path in renamed else _cut(o, exc)) if id(o) in writing else o for o in outcomes]
    except FileAccessError as exc:
        return [_refused(o, exc) if id(o) in writing else o for o in outcomes]
    return [_as_written(o) if id(o) in writing else o for o in outcomes]


def _as_written(outcome: FileOutcome) -> FileOutcome:
    companions = [replace(c, written=True, content=None) for c in outcome.companions]
    return replace(outcome, written=True, original=None, fixed_source=None, companions=companions)


def _refused(outcome: FileOutcome, exc: FileAccessError) -> FileOutcome:
    """A file of a run whose writes could not all be staged: none was written."""
    if exc.path == outcome.path:
        return _unwritten(outcome, exc.reason)
    if any(c.path == exc.path for c in outcome.companions):
        return _unwritten(outcome, f"cannot write {exc.path}: {exc.reason}")
    return _unwritten(outcome, f"not written: fix writes all of a run's files or none, and {exc.path} cannot be written")


def _cut(outcome: FileOutcome, exc: BurstCut) -> FileOutcome:
    """A file of a run whose burst of renames `exc` cut before it: the next fix writes it."""
    if exc.path == outcome.path:
        return _unwritten(outcome, f"{exc.reason}: the run's writes stopped here; the next fix finishes them")
    return _unwritten(outcome, f"not written yet: the run's writes stopped at {exc.path}; the next fix finishes them")


def _decide_and_redo(
    outcomes: list[FileOutcome],
    template: FileJob,
    paths: Sequence[str | os.PathLike[str]],
    discovery_options: DiscoveryOptions | None,
    cwd: str,
) -> tuple[list[FileOutcome], ProjectFacts]:
    """Make the project-wide decision (engine/execution/project.py), then analyse again
    the files that waited for it; the other outcomes stand."""
    from acp_migrate.engine.execution.project import decide, project_root

    absolute = {os.path.abspath(os.path.join(cwd, o.path)): o for o in outcomes}
    facts = decide(
        root=project_root(list(paths) or ["."], discovery_options),
        run_paths=[os.path.abspath(p) for p in (paths or ["."])],
        run_files={path: o.callers for path, o in absolute.items()},
        settings=template.settings,
        options=discovery_options,
        cwd=cwd,
    )
    _phase("decision")
    redone = {
        path: process_file(replace(template, path=path, display_path=o.path, project=facts))
        for path, o in absolute.items()
        if o.deferred
    }
    return [redone.get(path, o) for path, o in absolute.items()], facts


def _tests_left_behind(
    outcomes: list[FileOutcome],
    template: FileJob,
    paths: Sequence[str | os.PathLike[str]],
    discovery_options: DiscoveryOptions | None,
    cwd: str,
) -> list[FileOutcome]:
    """The tests outside the run asserting what its code has left (engine/execution/project.py):
    a file it wrote fixing a place that passes or reads the legacy field, or one already migrated."""
    from acp_migrate.engine.execution.project import project_root, tests_left_behind

    return tests_left_behind(
        root=project_root(list(paths) or ["."], discovery_options),
        run_paths=[os.path.abspath(p) for p in (paths or ["."])],
        run_files={os.path.abspath(os.path.join(cwd, o.path)): o.path for o in outcomes},
        changed=[o.path for o in outcomes if o.written and any(why is None for _, why in o.callers)],
        settings=template.settings,
        options=discovery_options,
        cwd=cwd,
    )


def _read_back(outcome: FileOutcome, template: FileJob, cwd: str, facts: ProjectFacts | None) -> FileOutcome:
    """fix's postcondition (engine/execution/postcondition.py): a written file, read back as check reads it."""
    if not outcome.written or outcome.deleted or outcome.error is not None:
        return outcome
    job = replace(
        template,
        path=os.path.abspath(os.path.join(cwd, outcome.path)),
        display_path=outcome.path,
        mode=Mode.CHECK,
        project=facts if facts is not None else ProjectFacts(),
    )
    return checked(outcome, process_file(job))


def process_file(job: FileJob, source: bytes | None = None) -> FileOutcome:
    """Read and analyse one file; in diff and fix mode its outcome holds the bytes read
    and the fixed ones (fix writes them once every file is analysed). Every failure
    becomes `error`.

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
    except FileAccessError as exc:
        # Too large to read whole (a data file: the census reads JSON), yet no rule could
        # report on it: as clean as a file the prefilter passes over.
        if _holds_no_token(job.path):
            return FileOutcome(path=job.display_path)
        return FileOutcome(path=job.display_path, error=exc.reason)
    except SourceError as exc:
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
        deleted=analysis.deleted,
    )
    if fixed is None or job.mode is Mode.CHECK or outcome.deferred:
        return outcome
    try:
        companions = companions_to_write(job.path, job.display_path, analysis.companions)
    except FileAccessError as exc:
        return _unwritten(outcome, exc.reason)
    # Written by the run once every file is analysed (`_write_together`).
    return replace(outcome, original=source, fixed_source=fixed, companions=[c for _, c in companions])


_SCAN_CHUNK = 1 << 20


def _holds_no_token(path: str) -> bool:
    """Whether the regular file at `path` surely holds no rule's trigger token: read in
    chunks overlapping by a token's length, for a file too large to read whole."""
    from acp_migrate.engine.analysis import may_contain_legacy
    from acp_migrate.rules import TRIGGERS

    overlap = max(map(len, TRIGGERS)) - 1
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        tail = b""
        while chunk := os.read(fd, _SCAN_CHUNK):
            window = tail + chunk
            if may_contain_legacy(window):
                return False
            tail = window[-overlap:]
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def companions_to_write(path: str, display_path: str, wanted: dict[str, bytes]) -> list[tuple[str, CompanionFile]]:
    """(absolute path, what is written there) for each file the fixed source at `path`
    needs beside it that is missing or an older release's vendored copy; one with the
    same code (in any formatting) or edited by hand is left. Raises FileAccessError
    when another file of that name is there: never replaced."""
    from acp_migrate.engine.analysis import is_vendored, replaceable

    found = []
    for relative, content in sorted(wanted.items()):
        target = os.path.normpath(os.path.join(os.path.dirname(path), relative))
        shown = os.path.normpath(os.path.join(os.path.dirname(display_path), relative))
        try:
            existing: bytes | None = read_source(target)
        except FileAccessError as exc:
            if exc.reason != describe_os_error(FileNotFoundError(errno.ENOENT, "")):
                raise FileAccessError(f"cannot read {shown}: {exc.reason}") from None
            existing = None
        if existing == content:
            continue
        if existing is not None and not is_vendored(existing):
            raise FileAccessError(
                f"{shown} exists and is not acp-migrate's vendored runtime: fix will not replace it"
                " (rename it, or set `runtime-import` to a module to import the shim from)"
            )
        if existing is not None and not replaceable(existing, content):
            continue  # current in the project's formatting, or edited (ACP009 says so)
        found.append((target, CompanionFile(path=shown, path_in_folder=relative, original=existing, content=content)))
    return found


def _unwritten(outcome: FileOutcome, reason: str) -> FileOutcome:
    # The file is untouched: it is an error, not a fix with leftovers.
    return replace(outcome, error=reason, changed=False, remaining=[], original=None, fixed_source=None, companions=[])


def _internal_error(exc: Exception) -> str:
    detail = str(exc).splitlines()[0] if str(exc) else ""
    return f"internal error: {type(exc).__name__}: {detail}" if detail else f"internal error: {type(exc).__name__}"


# Parallelism. Screening a file (read, prefilter, screen) costs microseconds; analysing
# one that passes costs milliseconds, about 10 us per byte, and each process that does
# pays LibCST's import once, about 0.3 s of CPU: as much as analysing 30 kB. So this
# process screens the files as the walk streams, and keeps the candidates; workers are
# worth their start-up and import only when the candidates' work is more than that:
# once the candidates hold POOL_MIN_WORK bytes, they go to one worker per core
# (engine/execution/pool.py), and so does the rest of the walk, in batches of paths
# that the workers screen and analyse (clean files come back as bare paths: pickling
# thousands of outcomes would cost more than screening). A run whose candidates stay
# under it (a migrated tree, pre-commit's few files) analyses them here, with one
# import, and starts no worker.
LIBCST_IMPORT_BYTES = 30_000
POOL_MIN_WORK = 2 * LIBCST_IMPORT_BYTES
BATCH_FILES = 64


def process_paths(
    paths: Iterable[str], template: FileJob, cwd: str, workers: int | None = None
) -> Iterator[FileOutcome]:
    """`process_file` over a `template` job for each of `paths` (shown relative to
    `cwd`), one outcome each, in completion order (sort them). `paths` may be a stream
    (a walk going on)."""
    workers = available_cores() if workers is None else workers
    paths = iter(paths)
    candidates: list[tuple[FileJob, bytes]] = []
    work = 0
    for path in paths:
        job = template.at(path, cwd)
        screened = _screen(job)
        if isinstance(screened, FileOutcome):
            yield screened
            continue
        candidates.append((job, screened))
        work += len(screened)
        if workers >= 2 and work >= POOL_MIN_WORK:
            yield from _in_workers(candidates, paths, template, cwd, workers)
            return
    for job, source in candidates:
        yield process_file(job, source)


def _screen(job: FileJob) -> FileOutcome | bytes:
    """The outcome of a file that needs no LibCST, else its bytes (a candidate)."""
    try:
        source = read_source(job.path)
    except (FileAccessError, OSError):  # process_file reports it
        return process_file(job)
    return source if needs_libcst(source, job.display_path, job.settings) else process_file(job, source)


def _in_workers(
    candidates: list[tuple[FileJob, bytes]], paths: Iterator[str], template: FileJob, cwd: str, workers: int
) -> Iterator[FileOutcome]:
    """The candidates found so far, then the rest of the walk in batches, in workers."""
    items = chain(candidates, _chunks(paths, BATCH_FILES))
    died: list[FileJob] = []
    with contextlib.closing(run_in_workers(functools.partial(_work, template, cwd), items, workers)) as results:
        for item, result in results:
            if isinstance(result, WorkerDied):
                jobs = [item[0]] if isinstance(item, tuple) else [template.at(path, cwd) for path in item]
                # The file a worker died on is not tried again: it would only die again.
                yield from (_crashed(job) for job in jobs if result.killed_by(job.path))
                died += [job for job in jobs if not result.killed_by(job.path)]
            elif isinstance(result, FileOutcome):
                yield result
            else:
                clean, others = result
                yield from map(FileOutcome, clean)
                yield from others
    # A worker died (a native crash) and took its pool's items with it: each of their
    # files goes again, alone in a process, so only a file that kills it is lost.
    for job in sorted(died, key=lambda job: job.path):
        for _, outcome in run_in_workers(process_file, [job], 1):
            yield _crashed(job) if isinstance(outcome, WorkerDied) else outcome


def _crashed(job: FileJob) -> FileOutcome:
    return FileOutcome(path=job.display_path, error="internal error: the analysis crashed its process")


def _work(template: FileJob, cwd: str, item: tuple[FileJob, bytes] | list[str]):
    """In a worker: a candidate's outcome, or for a batch of paths (display paths of the
    files with nothing to say, the other outcomes)."""
    if isinstance(item, tuple):
        working_on(item[0].path)
        return process_file(*item)
    clean: list[str] = []
    others: list[FileOutcome] = []
    for path in item:
        job = template.at(path, cwd)
        working_on(job.path)
        outcome = process_file(job)
        if outcome == FileOutcome(path=outcome.path):
            clean.append(outcome.path)
        else:
            others.append(outcome)
    return clean, others


def _chunks(items: Iterable[str], size: int) -> Iterator[list[str]]:
    chunk: list[str] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
