"""Human-readable output: `path:line:col: CODE message` lines and a summary.

`paint` colours them on a terminal; `quiet` keeps only the findings (no summary, no
"Fixed" lines); `summary=False` leaves the summary out (on a terminal the closing
summary, report/progress.py, says it once); `concise` is the finding lines alone, for
editors and grep. `render_fixes` is `--show-fixes`: the findings fix rewrote (or would),
per file and rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from acp_migrate.escape import shown, shown_path
from acp_migrate.findings import Finding
from acp_migrate.report.colour import PLAIN, Painter
from acp_migrate.results import FileError, FileOutcome, Mode, RunResult

FIX_COMMAND = "acp-migrate fix"


def format_finding(finding: Finding, paint: Painter = PLAIN, *, mark_fixable: bool = False) -> str:
    """`path:line:col: CODE message`; with `mark_fixable` (check's lines), `CODE [*]` for
    what `fix` rewrites, as ruff's concise format marks it."""
    where = f"{paint(shown_path(finding.path), 'bold')}:{finding.line}:{finding.column}:"
    marker = " [*]" if mark_fixable and finding.fixable else ""
    return f"{where} {paint(finding.code, 'red', 'bold')}{marker} {shown(finding.message)}"


def format_error(error: FileError) -> str:
    return f"{shown_path(error.path)}: error: {shown(error.reason)}"


def format_warning(warning: FileError) -> str:
    return f"{shown_path(warning.path)}: warning: {shown(warning.reason)}"


def render_errors(result: RunResult) -> str:
    """The stderr part of every format: one line per file or path that could not be
    analysed, then one per file not read that held nothing to migrate (a warning: the
    exit code ignores it)."""
    return _lines(format_error(error) for error in result.errors) + _lines(
        format_warning(warning) for warning in result.warnings
    )


def render_check(result: RunResult, *, paint: Painter = PLAIN, quiet: bool = False, summary: bool = True) -> str:
    findings = _lines(format_finding(f, paint, mark_fixable=True) for f in result.findings)
    if quiet or not summary:
        return findings
    return findings + render_summary(result, paint=paint)


def render_concise(result: RunResult) -> str:
    return _lines(format_finding(f, mark_fixable=True) for f in result.findings)


def render_summary(result: RunResult, *, paint: Painter = PLAIN) -> str:
    """The summary that ends a text report: `check_summary` and the fixable hint (check),
    `fix_summary` (fix), `diff_summary` (diff)."""
    if result.mode is Mode.CHECK:
        summary = check_summary(result)
        colour = "green" if summary == "All checks passed." else "bold"
        hint = fixable_hint(result)
        return paint(summary, colour) + "\n" + (hint + "\n" if hint else "")
    summary = fix_summary(result) if result.mode is Mode.FIX else diff_summary(result)
    return paint(summary, "bold") + "\n"


def check_summary(result: RunResult) -> str:
    findings = result.findings
    parts = []
    if findings:
        files = len({f.path for f in findings})
        parts.append(f"Found {_count(len(findings), 'finding')} in {_count(files, 'file')}")
    if result.errors:
        parts.append(_unanalysed(result))
    # Success is claimed only when every file was analysed.
    return "; ".join(parts) + "." if parts else "All checks passed."


def fixable_hint(result: RunResult) -> str | None:
    """`[*] N fixable with `acp-migrate fix`.` (ruff's hint), when check found fixable findings."""
    fixable = sum(f.fixable for f in result.findings)
    return f"[*] {fixable} fixable with `{FIX_COMMAND}`." if fixable else None


def fixed_findings(result: RunResult) -> list[Finding]:
    """What fix rewrote (fix: in the files it wrote), would rewrite (diff: in the files
    that would change), or says it can rewrite (check: the fixable findings)."""
    if result.mode is Mode.CHECK:
        return [f for f in result.findings if f.fixable]
    fixed = []
    for outcome in result.files:
        if outcome.written if result.mode is Mode.FIX else outcome.changed:
            fixed += _fixed_in(outcome)
    return sorted(fixed, key=Finding.sort_key)


def _fixed_in(outcome: FileOutcome) -> list[Finding]:
    left = set(outcome.remaining)
    return [f for f in outcome.findings if f.fixable and f not in left]


def render_fix(
    result: RunResult,
    *,
    paint: Painter = PLAIN,
    quiet: bool = False,
    summary: bool = True,
    show_fixes: Mapping[str, str] | None = None,
) -> str:
    """`Fixed <path>` per file written (or, with `show_fixes`, the rule names by code: the
    fixed findings per file and rule), the findings left, the summary."""
    remaining = _lines(format_finding(f, paint) for f in result.remaining)
    if quiet:
        return remaining
    if show_fixes is not None:
        fixed = render_fixes(result, show_fixes, paint=paint)
    else:
        fixed = _lines(
            f"{paint(_written_verb(outcome), 'green')} {shown(outcome.path)}"
            for outcome in result.files
            if outcome.written
        )
        fixed += _lines(
            f"{paint('Added' if c.original is None else 'Refreshed', 'green')} {shown(c.path)}"
            for c in result.companions
            if c.written
        )
    return fixed + remaining + (render_summary(result, paint=paint) if summary else "")


def _written_verb(outcome: FileOutcome) -> str:
    """`Fixed` only where a finding was fixed; `Changed` where fix only wrote a TODO."""
    if outcome.deleted:
        return "Deleted"
    return "Fixed" if _fixed_in(outcome) else "Changed"


def render_fixes(result: RunResult, names: Mapping[str, str], *, paint: Painter = PLAIN) -> str:
    """`--show-fixes`, as ruff shows it:

        Fixed 3 findings:
        - pkg/agent.py:
            2 × ACP001 (initialize-slash-commands)

    "Would fix" in check and diff mode; nothing when there is nothing to fix."""
    fixed = fixed_findings(result)
    if not fixed:
        return ""
    verb = "Fixed" if result.mode is Mode.FIX else "Would fix"
    lines = [f"{paint(verb, 'green')} {_count(len(fixed), 'finding')}:"]
    by_path: dict[str, Counter[str]] = {}
    for finding in fixed:
        by_path.setdefault(finding.path, Counter())[finding.code] += 1
    for path, counts in by_path.items():
        lines.append(f"- {paint(shown(path), 'bold')}:")
        for code, n in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
            name = f" ({names[code]})" if names.get(code) else ""
            lines.append(f"    {n} × {paint(code, 'red', 'bold')}{name}")
    return _lines(lines)


def fix_summary(result: RunResult) -> str:
    written = sum(outcome.written for outcome in result.files)
    return _rewrite_summary(result, written, fixed_verb="Fixed", changed_verb="Changed")


def diff_summary(result: RunResult) -> str:
    return _rewrite_summary(
        result,
        len(result.changed_files),
        fixed_verb="Would fix",
        changed_verb="Would change",
        nothing="Nothing to change.",
    )


def _rewrite_summary(
    result: RunResult, files: int, *, fixed_verb: str, changed_verb: str, nothing: str = "Nothing to fix."
) -> str:
    fixed = len(fixed_findings(result))
    remaining = sum(not f.fixable for f in result.remaining)
    listed = len(result.remaining) - remaining  # what fix did that a reviewer must see
    parts = []
    if fixed:
        parts.append(f"{fixed_verb} {_count(fixed, 'finding')} in {_count(files, 'file')}")
    elif files:  # only TODO comments added
        parts.append(f"{changed_verb} {_count(files, 'file')}")
    added = [c for c in result.companions if c.written or result.mode is not Mode.FIX]
    if added:
        verb = "added" if result.mode is Mode.FIX else "would add"
        parts.append(f"{verb} {_count(len(added), 'file')} ({_named([c.path for c in added])})")
    if listed:
        parts.append(f"{listed} listed above for review")
    if remaining:
        verb = "needs" if remaining == 1 else "need"
        parts.append(f"{_count(remaining, 'finding')} {verb} manual work")
    if result.errors:
        parts.append(_unanalysed(result))
    return "; ".join(parts) + "." if parts else nothing


def _unanalysed(result: RunResult) -> str:
    # A file fix analysed (its findings are there) but could not write is not unanalysed.
    unwritten = sum(outcome.error is not None and bool(outcome.findings) for outcome in result.files)
    unanalysed = len(result.errors) - unwritten
    parts = [f"{_count(unanalysed, 'file')} could not be analysed"] if unanalysed else []
    if unwritten:
        parts.append(f"{_count(unwritten, 'file')} could not be written")
    return "; ".join(parts)


def render_stopped(written: Sequence[str]) -> str:
    """What a stopped `fix` wrote: nothing, or every file of the run (its writes are one step)."""
    if not written:
        return "fix stopped: nothing was written\n"
    return (
        f"fix stopped once its writes were done: {_count(len(written), 'file')} written ({_named(sorted(written))})\n"
    )


def render_finished(written: Sequence[str]) -> str:
    """What a fix wrote first, finishing the burst of one killed while writing."""
    if not written:
        return "fix removed the journal of a fix killed once its writes were done: nothing was left to write\n"
    files = f"{_count(len(written), 'file')} written ({_named(sorted(written))})"
    return f"fix finished the writes of a fix killed while writing: {files}\n"


# The summary is one line: past this many, the files added are counted, not named.
NAMED_FILES = 5


def _named(paths: list[str]) -> str:
    shown_paths = ", ".join(shown(path) for path in paths[:NAMED_FILES])
    more = len(paths) - NAMED_FILES
    return f"{shown_paths}, and {more} more" if more > 0 else shown_paths


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _lines(lines: Iterable[str]) -> str:
    return "".join(line + "\n" for line in lines)
