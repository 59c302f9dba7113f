"""Run one mode (`check`, `diff`, `fix`) over the PATH arguments and collect per-file outcomes.

Each file is handled by `process_file`, a top-level function of a picklable job,
so a process pool can replace the sequential `map` in `run` without other changes.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from enum import StrEnum

from pydantic import BaseModel

from acp_migrate.engine.codemod import analyze_source
from acp_migrate.engine.discover import discover
from acp_migrate.engine.files import FileAccessError, describe_os_error, read_source, write_atomic
from acp_migrate.findings import Finding, SourceError


class Mode(StrEnum):
    CHECK = "check"
    DIFF = "diff"
    FIX = "fix"


class FileError(BaseModel):
    """A file or PATH that could not be analysed; `path` is the display path."""

    path: str
    reason: str


class FileJob(BaseModel):
    path: str  # absolute, for I/O
    display_path: str  # relative to the current directory, for output and findings
    mode: Mode


class FileOutcome(BaseModel):
    """What happened to one file.

    `changed`: fix would rewrite it, or did (see `written`); not computed in check mode.
    The bytes `original` and `fixed_source` are kept only in diff mode, to show the change.
    """

    path: str
    findings: list[Finding] = []
    remaining: list[Finding] = []
    changed: bool = False
    written: bool = False
    original: bytes | None = None
    fixed_source: bytes | None = None
    encoding: str = "utf-8"
    error: str | None = None


class RunResult(BaseModel):
    mode: Mode
    files: list[FileOutcome] = []
    path_errors: list[FileError] = []

    @property
    def findings(self) -> list[Finding]:
        return sorted((f for outcome in self.files for f in outcome.findings), key=Finding.sort_key)

    @property
    def remaining(self) -> list[Finding]:
        return sorted((f for outcome in self.files for f in outcome.remaining), key=Finding.sort_key)

    @property
    def changed_files(self) -> list[FileOutcome]:
        return [outcome for outcome in self.files if outcome.changed]

    @property
    def errors(self) -> list[FileError]:
        file_errors = [FileError(path=o.path, reason=o.error) for o in self.files if o.error is not None]
        return sorted(self.path_errors + file_errors, key=lambda e: (e.path, e.reason))

    def exit_code(self) -> int:
        """2 if anything could not be analysed; else 1 if there is something to report; else 0."""
        if self.errors:
            return 2
        if self.mode is Mode.CHECK:
            return 1 if any(o.findings for o in self.files) else 0
        if self.mode is Mode.DIFF:
            return 1 if self.changed_files else 0
        return 1 if any(o.remaining for o in self.files) else 0


def display_path(path: str, cwd: str | None = None) -> str:
    """`path` relative to the current directory; absolute when that is impossible (other drive)."""
    try:
        return os.path.relpath(path, cwd if cwd is not None else os.getcwd())
    except ValueError:
        return os.path.abspath(path)


def run(mode: Mode | str, paths: Sequence[str | os.PathLike[str]] = ()) -> RunResult:
    """Discover the files under `paths` (default `.`) and process each one; never raises per file."""
    mode = Mode(mode)
    cwd = os.getcwd()
    discovery = discover(paths)
    jobs = [FileJob(path=p, display_path=display_path(p, cwd), mode=mode) for p in discovery.files]
    outcomes = list(map(process_file, jobs))
    return RunResult(
        mode=mode,
        files=sorted(outcomes, key=lambda outcome: outcome.path),
        path_errors=[FileError(path=display_path(e.path, cwd), reason=e.reason) for e in discovery.errors],
    )


def process_file(job: FileJob) -> FileOutcome:
    """Read, analyse and (in fix mode) write one file. Every failure becomes `error`."""
    try:
        source = read_source(job.path)
        # check reports only: the fixed source is not worth computing.
        analysis = analyze_source(source, path=job.display_path, fix=job.mode is not Mode.CHECK)
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
    )
    if fixed is None or job.mode is Mode.CHECK:
        return outcome
    if job.mode is Mode.DIFF:
        return outcome.model_copy(update={"original": source, "fixed_source": fixed})
    try:
        write_atomic(job.path, fixed)
    except FileAccessError as exc:
        return _unwritten(outcome, exc.reason)
    except Exception as exc:
        return _unwritten(outcome, _internal_error(exc))
    return outcome.model_copy(update={"written": True})


def _unwritten(outcome: FileOutcome, reason: str) -> FileOutcome:
    # The file is untouched: it is an error, not a fix with leftovers.
    return outcome.model_copy(update={"error": reason, "changed": False, "remaining": []})


def _internal_error(exc: Exception) -> str:
    detail = str(exc).splitlines()[0] if str(exc) else ""
    return f"internal error: {type(exc).__name__}: {detail}" if detail else f"internal error: {type(exc).__name__}"
