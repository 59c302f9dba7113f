"""The public Python API: what the `acp-migrate` command does, as functions with typed results.

```python
from acp_migrate import check_paths, fix_source

report = check_paths(["src"], select=["ACP001"])
for finding in report.findings:
    print(finding.path, finding.line, finding.code, finding.message)

result = fix_source(code, path="agent.py")
new_code = result.output
```

Path functions (`check_paths`, `diff_paths`, `fix_paths`) read the `[tool.acp-migrate]`
configuration like the command line does (`config=`, `isolated=`, and keyword overrides
named like the configuration keys with underscores: `select`, `ignore`, `exclude`,
`extend_exclude`, `runtime_import`, `respect_gitignore`,
`force_exclude`, `report_unused_suppressions`). Source functions (`check_source`,
`diff_source`, `fix_source`) take the code itself (`str` in, `str` out; `bytes` in,
`bytes` out). Errors in a file never raise: they are in `errors` / `error`, and
`exit_code` is what the command line would exit with. A bad configuration raises
`ConfigError`; a repository git refuses to read (its ignore files unknown) raises
`GitUnavailable`; a fix stopped by Ctrl-C or SIGTERM raises `StoppedRun` (a
KeyboardInterrupt) naming what it wrote: nothing, or all. The journal of a fix killed
while writing makes check and diff raise `UnfinishedRun` (fix finishes it first, and
raises it only for a journal it cannot trust).

Importing this module does not import LibCST; analysing a file that may hold legacy
code does.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from acp_migrate.config import ConfigError, Options, Overrides, load_options
from acp_migrate.engine.analysis import analyze_source
from acp_migrate.engine.execution.discover import FileSelector, GitUnavailable
from acp_migrate.engine.execution.files import FileAccessError
from acp_migrate.engine.execution.journal import UnfinishedRun
from acp_migrate.engine.execution.modules import file_system_modules
from acp_migrate.engine.execution.runner import StoppedRun, companions_to_write, run
from acp_migrate.findings import Finding, SourceError
from acp_migrate.results import FileError, FileOutcome, Mode, RunResult
from acp_migrate.rulebook import Example, RuleInfo

__all__ = [
    "ConfigError",
    "FileError",
    "Finding",
    "GitUnavailable",
    "Mode",
    "Options",
    "Overrides",
    "RuleExample",
    "RuleInfo",
    "RunReport",
    "SourceReport",
    "StoppedRun",
    "UnfinishedRun",
    "check_paths",
    "check_source",
    "diff_paths",
    "diff_source",
    "fix_paths",
    "fix_source",
    "list_rules",
    "load_options",
    "rule_info",
]

Progress = Callable[[int, int], None]
StrPath = str | os.PathLike[str]


# -- results ---------------------------------------------------------------------------


@dataclass(slots=True)
class RunReport:
    """One run over paths. `result` holds the per-file outcomes the output formats read."""

    mode: Mode
    result: RunResult
    options: Options
    elapsed: float  # seconds

    @property
    def findings(self) -> list[Finding]:
        return self.result.findings

    @property
    def remaining(self) -> list[Finding]:
        """What still needs a person after `fix` (in check mode: what would, once fixed)."""
        return self.result.remaining

    @property
    def errors(self) -> list[FileError]:
        return self.result.errors

    @property
    def files_scanned(self) -> int:
        return len(self.result.files)

    @property
    def changed_files(self) -> list[str]:
        """Files `fix` rewrote (fix), or would rewrite (diff); empty in check mode."""
        return [o.path for o in self.result.files if (o.written if self.mode is Mode.FIX else o.changed)]

    @property
    def patch(self) -> bytes:
        """diff mode: the unified diff (`git apply`-able)."""
        from acp_migrate.report.diff import render_diff

        return render_diff(self.result)

    @property
    def exit_code(self) -> int:
        return self.result.exit_code()


@dataclass(slots=True)
class SourceReport:
    """One source analysed in memory. `output`: the fixed code (fix and diff), else the input."""

    mode: Mode
    path: str
    findings: list[Finding] = field(default_factory=list)
    remaining: list[Finding] = field(default_factory=list)
    changed: bool = False
    output: str | bytes = b""
    patch: str | bytes = b""
    error: str | None = None
    excluded: bool = False  # force-exclude skipped it: output is the input
    warning: str | None = None  # not read, nothing to migrate in it (exit code unchanged)

    @property
    def exit_code(self) -> int:
        if self.error is not None:
            return 2
        if self.mode is Mode.CHECK:
            return 1 if self.findings else 0
        if self.mode is Mode.DIFF:
            return 1 if self.changed else 0
        return 1 if any(not f.fixable for f in self.remaining) else 0


# What a rule's documentation shows (its examples: `Example`, once for every rule).
RuleExample = Example


# -- paths -----------------------------------------------------------------------------


def _options(
    paths: Sequence[StrPath], options: Options | None, config: StrPath | None, isolated: bool, overrides: dict[str, Any]
) -> Options:
    if options is not None:
        if overrides or config is not None or isolated:
            raise TypeError("give either `options` or `config`/`isolated`/overrides, not both")
        return options
    return load_options(paths, config=config, isolated=isolated, overrides=Overrides.from_keywords(overrides))


def _run_paths(
    mode: Mode,
    paths: Sequence[StrPath],
    options: Options | None,
    config: StrPath | None,
    isolated: bool,
    progress: Progress | None,
    overrides: dict[str, Any],
) -> RunReport:
    resolved = _options(paths, options, config, isolated, overrides)
    started = time.perf_counter()
    result = run(
        mode,
        paths,
        settings=resolved.settings,
        discovery_options=resolved.discovery,
        report_unused_suppressions=resolved.report_unused_suppressions,
        progress=progress,
    )
    return RunReport(mode=mode, result=result, options=resolved, elapsed=time.perf_counter() - started)


def check_paths(
    paths: Sequence[StrPath] = (),
    *,
    options: Options | None = None,
    config: StrPath | None = None,
    isolated: bool = False,
    progress: Progress | None = None,
    **overrides: Any,
) -> RunReport:
    """Report legacy patterns under `paths` (default `.`); never writes."""
    return _run_paths(Mode.CHECK, paths, options, config, isolated, progress, overrides)


def diff_paths(
    paths: Sequence[StrPath] = (),
    *,
    options: Options | None = None,
    config: StrPath | None = None,
    isolated: bool = False,
    progress: Progress | None = None,
    **overrides: Any,
) -> RunReport:
    """What `fix` would change, as `report.patch`; never writes."""
    return _run_paths(Mode.DIFF, paths, options, config, isolated, progress, overrides)


def fix_paths(
    paths: Sequence[StrPath] = (),
    *,
    options: Options | None = None,
    config: StrPath | None = None,
    isolated: bool = False,
    progress: Progress | None = None,
    **overrides: Any,
) -> RunReport:
    """Rewrite the files under `paths` in place; `report.remaining` needs a person."""
    return _run_paths(Mode.FIX, paths, options, config, isolated, progress, overrides)


# -- sources ---------------------------------------------------------------------------


def _analyse_source(
    mode: Mode,
    source: str | bytes,
    path: str,
    options: Options | None,
    config: StrPath | None,
    isolated: bool,
    overrides: dict[str, Any],
) -> SourceReport:
    text_in = isinstance(source, str)
    data = source.encode("utf-8") if isinstance(source, str) else bytes(source)
    real_path = path not in ("-", "") and not path.startswith("<")
    resolved = _options([path] if real_path else [], options, config, isolated, overrides)

    def out(raw: bytes) -> str | bytes:
        return raw.decode("utf-8", "surrogateescape") if text_in else raw

    if real_path and resolved.discovery.force_exclude:
        if FileSelector(resolved.discovery).excluded(os.path.abspath(path), is_dir=False):
            return SourceReport(mode=mode, path=path, output=source, patch=out(b""), excluded=True)
    try:
        analysis = analyze_source(
            data,
            path=path,
            fix=mode is not Mode.CHECK,
            settings=resolved.settings,
            report_unused_suppressions=resolved.report_unused_suppressions,
            modules=file_system_modules(path) if real_path else None,
        )
    except SourceError as error:
        return SourceReport(mode=mode, path=path, output=source, patch=out(b""), error=error.reason)
    fixed = analysis.fixed_source if analysis.fixed_source not in (None, data) else None
    remaining = analysis.remaining
    if fixed is not None and mode is not Mode.CHECK:
        remaining = remaining + _unwritten_companions(analysis.companions, path if real_path else None)
    patch = b""
    if fixed is not None and mode is Mode.DIFF:
        from acp_migrate.report.diff import file_diff

        outcome = FileOutcome(path=path, changed=True, original=data, fixed_source=fixed, encoding=analysis.encoding)
        patch = file_diff(outcome)
    return SourceReport(
        mode=mode,
        path=path,
        findings=analysis.findings,
        remaining=remaining,
        changed=fixed is not None,
        output=out(fixed) if fixed is not None else source,
        patch=out(patch),
        warning=analysis.warning,
    )


def _unwritten_companions(companions: dict[str, bytes], path: str | None) -> list[Finding]:
    """The files the fixed source imports that a source fixed in memory does not get
    (the vendored shim): unless already there, beside `path`, with the same bytes, the
    output cannot start, so they are work left, not a silent import of a missing file."""
    if path is None:
        missing = sorted(companions)
    else:
        try:
            missing = [c.path_in_folder for _, c in companions_to_write(os.path.abspath(path), path, companions)]
        except FileAccessError:  # another file of that name: it is not the shim either
            missing = sorted(companions)
    return [
        Finding(
            path or "-", 1, 1, 1, 1, "ACP009",
            f"the fixed code imports `{name}`, which fixing a source in memory does not write: "
            "run `acp-migrate fix` on its folder, or set runtime-import to an installed module",
            fixable=False,
        )
        for name in missing
    ]


def check_source(
    source: str | bytes,
    *,
    path: str = "-",
    options: Options | None = None,
    config: StrPath | None = None,
    isolated: bool = False,
    **overrides: Any,
) -> SourceReport:
    """Findings in `source`. `path` names it in findings, picks Python or Markdown by its
    suffix, and is where the configuration is looked for ("-": the current directory)."""
    return _analyse_source(Mode.CHECK, source, path, options, config, isolated, overrides)


def diff_source(
    source: str | bytes,
    *,
    path: str = "-",
    options: Options | None = None,
    config: StrPath | None = None,
    isolated: bool = False,
    **overrides: Any,
) -> SourceReport:
    """`report.patch`: what `fix_source` would change, as a unified diff of `path`."""
    return _analyse_source(Mode.DIFF, source, path, options, config, isolated, overrides)


def fix_source(
    source: str | bytes,
    *,
    path: str = "-",
    options: Options | None = None,
    config: StrPath | None = None,
    isolated: bool = False,
    **overrides: Any,
) -> SourceReport:
    """`report.output`: the migrated code (the input itself when nothing changes)."""
    return _analyse_source(Mode.FIX, source, path, options, config, isolated, overrides)


# -- rules -----------------------------------------------------------------------------


def list_rules(*, wire: bool = True) -> list[RuleInfo]:
    """Every code the tool reports: the codemod's rules (`acp_migrate.rules.ALL_RULES`),
    ACP100, then the probe's wire rules (`acp_migrate.probe.checks.WIRE_RULES`, ACP101...)
    unless not `wire`; each documented by its own module (`acp_migrate.rulebook`)."""
    from acp_migrate.engine.analysis.suppressions import UNUSED_SUPPRESSION
    from acp_migrate.rules import ALL_RULES

    infos = [RuleInfo.of(rule) for rule in (*ALL_RULES, UNUSED_SUPPRESSION)]
    if not wire:
        return infos
    from acp_migrate.probe.checks import WIRE_RULES

    return infos + [RuleInfo.of(rule) for rule in WIRE_RULES]


def rule_info(code: str) -> RuleInfo:
    """One rule by code (case-insensitive); KeyError when there is none."""
    for info in list_rules():
        if info.code == code.upper():
            return info
    raise KeyError(code)
