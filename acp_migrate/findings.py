"""What the codemod reports: findings, per-source results, and analysis errors.

Shared by the engine, the rules and the output formats; imports nothing heavy (plain
dataclasses: a clean run builds thousands of these and must not pay for pydantic).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)  # hashable: sets of findings
class Finding:
    """One place in one file that a rule reports.

    Positions are 1-based lines and 1-based columns, as editors show them.
    `fixable` means `fix` rewrites it; otherwise a person has to act.
    """

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    message: str
    fixable: bool

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.path, self.line, self.column, self.code, self.message)


@dataclass(slots=True)
class SourceAnalysis:
    """The result of running every rule over one source file.

    - `findings`: what `check` reports for this source, in order.
    - `fixed_source`: the bytes `fix` would write, or None when nothing changes.
    - `remaining`: what still needs a person once `fixed_source` is written
      (positions refer to the original source); a fixable one is what fix did and
      lists for the reviewer (a test it removed), not work left.
    - `encoding`: the source's text encoding, for showing diffs.
    - `callers`: each place that passes the legacy field to a schema factory or reads it, with why
      `fix` leaves it (`None`: it fixes it), whatever `select`/`ignore` say; a project's
      owned schema keeps the field while one is left (`settings.ProjectFacts`).
    - `needs_project`: a rule's result depends on `ProjectFacts` the caller did not give.
    - `companions`: files `fixed_source` needs beside it (the vendored runtime shim):
      path relative to the file's folder -> the bytes to write there (fix writes a
      missing one, refreshes a vendored one, refuses to replace any other file).
    - `deleted`: `fix` removes the file (a test module left with no test); then
      `fixed_source` is empty.
    - `warning`: why the source was not read (its bytes do not decode, and no legacy
      token is in them): reported on stderr, the exit code unchanged.
    """

    findings: list[Finding] = field(default_factory=list)
    fixed_source: bytes | None = None
    remaining: list[Finding] = field(default_factory=list)
    encoding: str = "utf-8"
    callers: list[tuple[Finding, str | None]] = field(default_factory=list)
    needs_project: bool = False
    warning: str | None = None
    companions: dict[str, bytes] = field(default_factory=dict)
    deleted: bool = False


class SourceError(Exception):
    """A file that could not be analysed: undecodable, binary, or a syntax error.

    `reason` is a one-line, human-readable explanation without the path.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
