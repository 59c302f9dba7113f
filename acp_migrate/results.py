"""What a run produced: per-file outcomes and the run's result, read by the output formats.

Next to `findings.py`, and as plain: a clean run makes one outcome per file of the tree.
The engine builds these; `report/` and the API read them and never import the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from acp_migrate.findings import Finding


class Mode(StrEnum):
    CHECK = "check"
    DIFF = "diff"
    FIX = "fix"


@dataclass(slots=True)
class FileError:
    """A file or PATH that could not be analysed; `path` is the display path."""

    path: str
    reason: str


@dataclass(slots=True)
class CompanionFile:
    """A file a fixed source needs beside it (the vendored runtime shim), written by fix
    before the source. `original`: its bytes before (None: new); `content` is kept in
    diff mode, and in fix mode until written."""

    path: str  # display path
    path_in_folder: str = ""  # relative to the fixed file's folder
    original: bytes | None = None
    content: bytes | None = None
    written: bool = False


@dataclass(slots=True)  # not frozen: a frozen __init__ costs 4x, and a run makes one per file
class FileOutcome:
    """What happened to one file (nothing changes it once made).

    `changed`: fix would rewrite it, or did (see `written`); not computed in check mode.
    The bytes `original` and `fixed_source` are kept in diff mode, to show the change, and
    in fix mode until the run writes them (all files at once).
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
    # fix removes the file, or did (a test module left with no test): `fixed_source` is empty.
    deleted: bool = False


@dataclass(slots=True)
class RunResult:
    mode: Mode
    files: list[FileOutcome] = field(default_factory=list)
    path_errors: list[FileError] = field(default_factory=list)
    # fix: the files a fix killed in its burst had left staged, written first (None: no
    # such fix; engine/execution/journal.py)
    finished: list[str] | None = None

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
