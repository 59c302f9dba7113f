"""Human-readable output: `path:line:col: CODE message` lines and a one-line summary.

`paint` colours them on a terminal; `quiet` keeps only the findings (no summary, no
"Fixed" lines); `concise` is the finding lines alone, for editors and grep.
"""

from __future__ import annotations

from collections.abc import Iterable

from acp_migrate.engine.runner import FileError, RunResult
from acp_migrate.findings import Finding
from acp_migrate.report.colour import PLAIN, Painter


def format_finding(finding: Finding, paint: Painter = PLAIN) -> str:
    where = f"{paint(finding.path, 'bold')}:{finding.line}:{finding.column}:"
    return f"{where} {paint(finding.code, 'red', 'bold')} {finding.message}"


def format_error(error: FileError) -> str:
    return f"{error.path}: error: {error.reason}"


def render_errors(result: RunResult) -> str:
    """The stderr part of every format: one line per file or path that could not be analysed."""
    return _lines(format_error(error) for error in result.errors)


def render_check(result: RunResult, *, paint: Painter = PLAIN, quiet: bool = False) -> str:
    findings = _lines(format_finding(f, paint) for f in result.findings)
    if quiet:
        return findings
    summary = check_summary(result)
    colour = "green" if summary == "All checks passed." else "bold"
    return findings + paint(summary, colour) + "\n"


def render_concise(result: RunResult) -> str:
    return _lines(format_finding(f) for f in result.findings)


def check_summary(result: RunResult) -> str:
    findings = result.findings
    parts = []
    if findings:
        fixable = sum(f.fixable for f in findings)
        files = len({f.path for f in findings})
        parts.append(f"Found {_count(len(findings), 'finding')} ({fixable} fixable) in {_count(files, 'file')}")
    if result.errors:
        parts.append(_unanalysed(result))
    # Success is claimed only when every file was analysed.
    return "; ".join(parts) + "." if parts else "All checks passed."


def render_fix(result: RunResult, *, paint: Painter = PLAIN, quiet: bool = False) -> str:
    remaining = _lines(format_finding(f, paint) for f in result.remaining)
    if quiet:
        return remaining
    fixed = [f"{paint('Fixed', 'green')} {outcome.path}" for outcome in result.files if outcome.written]
    return _lines(fixed) + remaining + paint(fix_summary(result), "bold") + "\n"


def fix_summary(result: RunResult) -> str:
    written = sum(outcome.written for outcome in result.files)
    remaining = len(result.remaining)
    parts = []
    if written:
        parts.append(f"Fixed {_count(written, 'file')}")
    if remaining:
        verb = "needs" if remaining == 1 else "need"
        parts.append(f"{_count(remaining, 'finding')} {verb} manual work")
    if result.errors:
        parts.append(_unanalysed(result))
    return "; ".join(parts) + "." if parts else "Nothing to fix."


def _unanalysed(result: RunResult) -> str:
    count = len(result.errors)
    return f"{_count(count, 'file')} could not be analysed"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _lines(lines: Iterable[str]) -> str:
    return "".join(line + "\n" for line in lines)
