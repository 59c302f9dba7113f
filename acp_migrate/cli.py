"""The `acp-migrate` command line: check, diff, fix, rules.

Exit codes (scripts and CI rely on them): 0 nothing to report, 1 findings /
changes / manual work left, 2 a file or path could not be analysed, or a bad
configuration or command line (2 wins). libcst is imported only when a file needs
parsing, so start-up stays light. The commands are thin: `acp_migrate.api` does the
work, `acp_migrate.report` renders it.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated

import typer

from acp_migrate import __version__, api
from acp_migrate.config import ConfigError, Options, Overrides
from acp_migrate.engine import code_cache
from acp_migrate.engine.runner import FileOutcome, RunResult
from acp_migrate.report.colour import PLAIN, Painter, colour_enabled
from acp_migrate.report.progress import ProgressBar, render_run_summary, stream_is_tty
from acp_migrate.report.text import render_errors

app = typer.Typer(
    name="acp-migrate",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

Paths = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="PATH",
        help="Files or directories (recursive *.py, *.pyi, *.md), or - for stdin. Default: the current directory.",
        show_default=False,
    ),
]
ConfigOption = Annotated[
    str | None,
    typer.Option("--config", metavar="FILE", help="Use this pyproject.toml (or TOML file) instead of discovery."),
]
IsolatedOption = Annotated[bool, typer.Option("--isolated", help="Ignore every configuration file.")]
SelectOption = Annotated[
    list[str] | None,
    typer.Option(
        "--select", metavar="CODES", help="Rule codes to run (comma-separated); replaces the file's select and ignore."
    ),
]
IgnoreOption = Annotated[
    list[str] | None,
    typer.Option(
        "--ignore", metavar="CODES", help="Rule codes not to run (comma-separated); adds to the file's ignore."
    ),
]
ExcludeOption = Annotated[
    list[str] | None,
    typer.Option("--exclude", metavar="GLOBS", help="Replace the excluded globs (comma-separated)."),
]
ExtendExcludeOption = Annotated[
    list[str] | None,
    typer.Option("--extend-exclude", metavar="GLOBS", help="More excluded globs (comma-separated)."),
]
TargetProtocolOption = Annotated[
    int | None, typer.Option("--target-protocol", min=1, max=2, help="Protocol version migrated code targets (1 or 2).")
]
RuntimeImportOption = Annotated[
    str | None, typer.Option("--runtime-import", metavar="MODULE", help="Module migrated code imports the shim from.")
]
GitignoreOption = Annotated[
    bool | None,
    typer.Option(
        "--respect-gitignore/--no-respect-gitignore", help="Skip files git ignores (default: on).", show_default=False
    ),
]
ForceExcludeOption = Annotated[
    bool | None,
    typer.Option(
        "--force-exclude/--no-force-exclude",
        help="Apply exclusions to paths given explicitly too (for pre-commit).",
        show_default=False,
    ),
]
UnusedOption = Annotated[
    bool,
    typer.Option(
        "--report-unused-suppressions", help="Report `# acp-migrate: ignore` comments that silence nothing (ACP100)."
    ),
]
StdinFilenameOption = Annotated[
    str | None,
    typer.Option("--stdin-filename", metavar="PATH", help="With PATH `-`: the file name the code on stdin stands for."),
]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="Only findings: no summaries, no progress.")]
NoColorOption = Annotated[
    bool, typer.Option("--no-color", help="Never colour the output (colour is only on a TTY anyway).")
]


class OutputFormat(StrEnum):
    TEXT = "text"
    CONCISE = "concise"
    JSON = "json"
    GITHUB = "github"
    SARIF = "sarif"


class RulesFormat(StrEnum):
    TEXT = "text"
    JSON = "json"


@dataclass
class Common:
    """The options every file command takes."""

    paths: list[str]
    config: str | None
    isolated: bool
    select: list[str] | None
    ignore: list[str] | None
    exclude: list[str] | None
    extend_exclude: list[str] | None
    target_protocol: int | None
    runtime_import: str | None
    respect_gitignore: bool | None
    force_exclude: bool | None
    report_unused_suppressions: bool
    stdin_filename: str | None
    quiet: bool
    no_color: bool

    @property
    def stdin(self) -> bool:
        return "-" in self.paths

    def options(self) -> Options:
        if self.stdin and len(self.paths) > 1:
            _usage_error("`-` (stdin) cannot be combined with other paths")
        if self.stdin_filename is not None and not self.stdin:
            _usage_error("--stdin-filename needs the path `-`")
        overrides = dict(
            select=_split(self.select),
            ignore=_split(self.ignore),
            exclude=_split(self.exclude),
            extend_exclude=_split(self.extend_exclude),
            target_protocol=self.target_protocol,
            runtime_import=self.runtime_import,
            respect_gitignore=self.respect_gitignore,
            force_exclude=self.force_exclude,
            report_unused_suppressions=self.report_unused_suppressions or None,
        )
        where = [self.stdin_filename] if self.stdin and self.stdin_filename else [] if self.stdin else self.paths
        try:
            return api.load_options(
                where,
                config=self.config,
                isolated=self.isolated,
                overrides=Overrides(**{k: v for k, v in overrides.items() if v is not None}),
            )
        except ConfigError as error:
            _fail(str(error))
        except ValueError as error:  # a bad command-line value, named by its flag
            _fail(str(error))

    def painter(self, stream) -> Painter:
        return Painter(colour_enabled(stream, no_color=self.no_color))

    def interactive(self) -> bool:
        """Progress and the closing summary: stderr is a terminal and --quiet is not given."""
        return not self.quiet and stream_is_tty(sys.stderr)

    @property
    def stdin_name(self) -> str:
        return self.stdin_filename or "-"


def _split(values: list[str] | None) -> list[str] | None:
    if values is None:
        return None
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def _usage_error(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _fail(message: str):
    for line in message.splitlines():
        typer.echo(f"error: {line}", err=True)
    raise typer.Exit(2)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"acp-migrate {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool, typer.Option("--version", help="Show the version and exit.", callback=_show_version, is_eager=True)
    ] = False,
) -> None:
    """Migrate ACP agent servers from initialize-time slash commands to per-session advertisement."""


def _common(**values) -> Common:
    values["paths"] = values.get("paths") or []
    return Common(**values)


@app.command()
def check(
    paths: Paths = None,
    output_format: Annotated[OutputFormat, typer.Option("--output-format", help="Report format.")] = OutputFormat.TEXT,
    statistics: Annotated[
        bool, typer.Option("--statistics", help="Count findings per rule instead of listing them.")
    ] = False,
    config: ConfigOption = None,
    isolated: IsolatedOption = False,
    select: SelectOption = None,
    ignore: IgnoreOption = None,
    exclude: ExcludeOption = None,
    extend_exclude: ExtendExcludeOption = None,
    target_protocol: TargetProtocolOption = None,
    runtime_import: RuntimeImportOption = None,
    respect_gitignore: GitignoreOption = None,
    force_exclude: ForceExcludeOption = None,
    report_unused_suppressions: UnusedOption = False,
    stdin_filename: StdinFilenameOption = None,
    quiet: QuietOption = False,
    no_color: NoColorOption = False,
) -> None:
    """Report legacy patterns; never writes. Exit 0 clean, 1 findings, 2 errors."""
    common = _common(**{k: v for k, v in locals().items() if k not in ("output_format", "statistics")})
    if statistics and output_format not in (OutputFormat.TEXT, OutputFormat.CONCISE, OutputFormat.JSON):
        _usage_error("--statistics works with --output-format text, concise or json")
    options = common.options()
    if common.stdin:
        report = api.check_source(sys.stdin.buffer.read(), path=common.stdin_name, options=options)
        result = _stdin_result(report)
        elapsed = None
    else:
        run_report = _run_paths(api.check_paths, common, options)
        result, elapsed = run_report.result, run_report.elapsed
    typer.echo(render_errors(result), nl=False, err=True)
    typer.echo(_render_check(result, output_format, statistics, common), nl=False)
    _closing_summary(common, result, elapsed)
    raise typer.Exit(result.exit_code())


def _render_check(result: RunResult, output_format: OutputFormat, statistics: bool, common: Common) -> str:
    paint = common.painter(sys.stdout) if output_format is OutputFormat.TEXT else PLAIN
    if statistics:
        from acp_migrate.report.statistics import render_statistics, render_statistics_json
        from acp_migrate.report.text import check_summary

        names = _rule_names() if result.findings else {}
        if output_format is OutputFormat.JSON:
            return render_statistics_json(result, names)
        table = render_statistics(result, names)
        return table if common.quiet or output_format is OutputFormat.CONCISE else table + check_summary(result) + "\n"
    if output_format is OutputFormat.JSON:
        from acp_migrate.report.json_format import render_json

        return render_json(result)
    if output_format is OutputFormat.GITHUB:
        from acp_migrate.report.github import render_github

        return render_github(result)
    if output_format is OutputFormat.SARIF:
        from acp_migrate.report.sarif import render_sarif

        return render_sarif(result, api.list_rules())
    if output_format is OutputFormat.CONCISE:
        from acp_migrate.report.text import render_concise

        return render_concise(result)
    from acp_migrate.report.text import render_check

    return render_check(result, paint=paint, quiet=common.quiet)


@app.command()
def diff(
    paths: Paths = None,
    config: ConfigOption = None,
    isolated: IsolatedOption = False,
    select: SelectOption = None,
    ignore: IgnoreOption = None,
    exclude: ExcludeOption = None,
    extend_exclude: ExtendExcludeOption = None,
    target_protocol: TargetProtocolOption = None,
    runtime_import: RuntimeImportOption = None,
    respect_gitignore: GitignoreOption = None,
    force_exclude: ForceExcludeOption = None,
    report_unused_suppressions: UnusedOption = False,
    stdin_filename: StdinFilenameOption = None,
    quiet: QuietOption = False,
    no_color: NoColorOption = False,
) -> None:
    """Print the unified diff `fix` would apply; never writes. Exit 0 nothing to change, 1 changes, 2 errors."""
    common = _common(**locals())
    from acp_migrate.report.diff import colour_patch, render_diff

    options = common.options()
    if common.stdin:
        report = api.diff_source(sys.stdin.buffer.read(), path=common.stdin_name, options=options)
        result, elapsed = _stdin_result(report), None
        patch = report.patch if isinstance(report.patch, bytes) else report.patch.encode()
    else:
        run_report = _run_paths(api.diff_paths, common, options)
        result, elapsed = run_report.result, run_report.elapsed
        patch = render_diff(result)
    typer.echo(render_errors(result), nl=False, err=True)
    if common.painter(sys.stdout).enabled:
        patch = colour_patch(patch)
    _write_stdout(patch)
    _closing_summary(common, result, elapsed)
    raise typer.Exit(result.exit_code())


@app.command()
def fix(
    paths: Paths = None,
    config: ConfigOption = None,
    isolated: IsolatedOption = False,
    select: SelectOption = None,
    ignore: IgnoreOption = None,
    exclude: ExcludeOption = None,
    extend_exclude: ExtendExcludeOption = None,
    target_protocol: TargetProtocolOption = None,
    runtime_import: RuntimeImportOption = None,
    respect_gitignore: GitignoreOption = None,
    force_exclude: ForceExcludeOption = None,
    report_unused_suppressions: UnusedOption = False,
    stdin_filename: StdinFilenameOption = None,
    quiet: QuietOption = False,
    no_color: NoColorOption = False,
) -> None:
    """Rewrite files in place (with `-`: stdin to stdout). Exit 0 nothing left to do, 1 manual work remains, 2 errors."""
    common = _common(**locals())
    from acp_migrate.report.text import format_finding, render_fix

    options = common.options()
    if common.stdin:
        # Editors: the code on stdout (unchanged on error), everything else on stderr.
        source = sys.stdin.buffer.read()
        report = api.fix_source(source, path=common.stdin_name, options=options)
        result = _stdin_result(report)
        output = report.output if isinstance(report.output, bytes) else report.output.encode()
        _write_stdout(output)
        paint = common.painter(sys.stderr)
        typer.echo(render_errors(result), nl=False, err=True)
        typer.echo("".join(format_finding(f, paint) + "\n" for f in result.remaining), nl=False, err=True)
        raise typer.Exit(report.exit_code)
    run_report = _run_paths(api.fix_paths, common, options)
    result = run_report.result
    typer.echo(render_errors(result), nl=False, err=True)
    typer.echo(render_fix(result, paint=common.painter(sys.stdout), quiet=common.quiet), nl=False)
    _closing_summary(common, result, run_report.elapsed)
    raise typer.Exit(result.exit_code())


@app.command()
def rules(
    code: Annotated[
        str | None, typer.Argument(metavar="[CODE]", help="Show this rule's documentation.", show_default=False)
    ] = None,
    output_format: Annotated[RulesFormat, typer.Option("--output-format", help="Output format.")] = RulesFormat.TEXT,
) -> None:
    """List every rule (code, name, fixable, summary), or document one with its before/after examples."""
    from acp_migrate.report.rules import render_rule_doc, render_rule_json, render_rule_table, render_rule_table_json

    infos = api.list_rules()
    if code is None:
        typer.echo(
            render_rule_table_json(infos) if output_format is RulesFormat.JSON else render_rule_table(infos), nl=False
        )
        return
    try:
        info = api.rule_info(code)
    except KeyError:
        _fail(f"unknown rule code {code!r} (known: {', '.join(i.code for i in infos)})")
    if output_format is RulesFormat.JSON:
        typer.echo(render_rule_json(info), nl=False)
    else:
        typer.echo(render_rule_doc(info), nl=False)


# -- helpers ---------------------------------------------------------------------------


def _run_paths(function, common: Common, options: Options) -> api.RunReport:
    bar = ProgressBar(sys.stderr, paint=common.painter(sys.stderr)) if common.interactive() else None
    try:
        return function(common.paths, options=options, progress=bar)
    finally:
        if bar is not None:
            bar.close()


def _closing_summary(common: Common, result: RunResult, elapsed: float | None) -> None:
    if elapsed is None or not common.interactive():
        return
    names = _rule_names() if result.findings or result.remaining else {}
    typer.echo(render_run_summary(result, elapsed, names, common.painter(sys.stderr)), nl=False, err=True)


def _rule_names() -> dict[str, str]:
    return {info.code: info.name for info in api.list_rules()}


def _stdin_result(report: api.SourceReport) -> RunResult:
    outcome = FileOutcome(
        path=report.path,
        findings=report.findings,
        remaining=report.remaining,
        changed=report.changed,
        error=report.error,
    )
    return RunResult(mode=report.mode, files=[outcome])


def _write_stdout(data: bytes) -> None:
    sys.stdout.flush()
    stream = getattr(sys.stdout, "buffer", None)
    if stream is None:  # a text-only stream (tests)
        sys.stdout.write(data.decode("utf-8", "surrogateescape"))
    else:
        stream.write(data)
        stream.flush()


def run_command() -> int:
    """Run the command line in `sys.argv`; return the exit code instead of exiting."""
    try:
        app()
    except SystemExit as exit:
        if exit.code is None or isinstance(exit.code, int):
            return exit.code or 0
        print(exit.code, file=sys.stderr)
        return 1
    except Exception:  # a crash must not exit 1, which means "findings"
        import traceback

        traceback.print_exc()
        return 2
    return 0


class _Terminated(KeyboardInterrupt):
    """SIGTERM (a cancelled CI job), raised where the run is, to stop it as Ctrl-C does."""


def main() -> None:
    """The `acp-migrate` command (and `python -m acp_migrate`).

    SIGTERM stops it as Ctrl-C does: the jobs not started are dropped and each worker
    finishes the file it is writing (workers ignore both signals), so no file is left
    half-written and no temp file stays; the exit code is 143 (130 for Ctrl-C)."""
    import signal

    received: list[int] = []
    running = [True]  # while the run goes on, a signal stops it where it is

    def stop(number, frame) -> None:
        received.append(number)
        if running:
            raise _Terminated if number == signal.SIGTERM else KeyboardInterrupt
        # Once the run is over, only the exit code tells: raised past the handlers
        # below, it would end the command with a traceback.

    try:
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        code = run_command()
        running.clear()
    except KeyboardInterrupt:  # one that came before or after typer's own handling
        running.clear()
        code = 130
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader left early (`| head`): its choice, not an error
        pass
    except OSError:
        code = 2  # the report could not be written (a full disk)
    code_cache.save()  # the dataclasses this run created first (nothing, once saved)
    if received:
        code = 128 + received[-1]
    # Leave without tearing the interpreter down: freeing a big run's objects one by one
    # costs 20 ms, a tenth of a clean check of a large tree (mypy leaves the same way).
    # Nothing is left to clean up: the pools' processes have nothing left to do and end
    # on their own (or were waited for, when the run was stopped).
    os._exit(code)
