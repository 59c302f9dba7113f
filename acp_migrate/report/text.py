"""Human-readable output: `path:line:col: CODE message` lines and a one-line summary."""

from __future__ import annotations

from collections.abc import Iterable

from acp_migrate.engine.runner import FileError, RunResult
from acp_migrate.findings import Finding


def format_finding(finding: Finding) -> str:
    return f"{finding.path}:{finding.line}:{finding.column}: {finding.code} {finding.message}"


def format_error(error: FileError) -> str:
    return f"{error.path}: error: {error.reason}"


def render_errors(result: RunResult) -> str:
    """The stderr part of every format: one line per file or path that could not be analysed."""
    return _lines(format_error(error) for error in result.errors)


def render_check(result: RunResult) -> str:
    findings = result.findings
    return _lines(format_finding(f) for f in findings) + check_summary(result) + "\n"


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


def render_fix(result: RunResult) -> str:
    fixed = [f"Fixed {outcome.path}" for outcome in result.files if outcome.written]
    remaining = [format_finding(f) for f in result.remaining]
    return _lines(fixed) + _lines(remaining) + fix_summary(result) + "\n"


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
