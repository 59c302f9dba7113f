"""The `acp-migrate` command line: check, diff, fix, rules.

Exit codes (scripts and CI rely on them): 0 nothing to report, 1 findings /
changes / manual work left, 2 a file or path could not be analysed, or a bad
configuration or command line (2 wins; `--exit-zero` turns 1 into 0, never 2); 130 and
143 when Ctrl-C or SIGTERM stopped the run. libcst is imported only when a file needs
parsing, so start-up stays light. The commands are thin: `acp_migrate.api` does the
work, `acp_migrate.report` renders it.

The options ruff users reach for mean what they mean in ruff: `check --fix` is `fix`,
`--exit-zero`, `--exit-non-zero-on-fix`, `--show-fixes`, `-o/--output-file`,
`--select`/`--ignore` with prefixes and `ALL`, `-v/--verbose`, `-V/--version`. Each
option is declared once (the `Annotated` aliases below) and the commands list the ones
they take; `--help` is click's plain layout (no rich boxes: it reads at 80 columns),
with the options in sections as ruff's.
"""

# (No `from __future__ import annotations` here: typer reads every option's annotation
# at each start, and strings it would have to evaluate first.)
import os
import sys
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import IO, Annotated, Self

import typer
from typer.core import TyperCommand

from acp_migrate import __version__, api
from acp_migrate.config import ConfigError, Options, Overrides
from acp_migrate.probe.cli import register as register_probe
from acp_migrate.report.colour import PLAIN, Painter, colour_enabled
from acp_migrate.report.progress import ProgressBar, render_run_summary, stream_is_tty
from acp_migrate.report.text import render_errors, render_finished, render_stopped, shown
from acp_migrate.results import FileOutcome, RunResult

HELP_OPTIONS = ["-h", "--help"]

app = typer.Typer(
    name="acp-migrate",
    add_completion=False,
    invoke_without_command=True,  # bare `acp-migrate`: the help, exit 0 (see _options)
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # click's plain help: rich's boxes clip option names at 80 columns
    context_settings={"help_option_names": HELP_OPTIONS},
)

# Sections of a command's --help, in this order (options name theirs; the rest: "Options").
OPTIONS, RULES, FILES, CONFIGURATION, MISCELLANEOUS = (
    "Options",
    "Rule selection",
    "File selection",
    "Configuration",
    "Miscellaneous",
)


COLUMN = 28


class Command(TyperCommand):
    """A command whose --help lists its options in sections, as ruff's does."""

    def format_options(self, ctx, formatter) -> None:
        arguments, sections = ([], {name: [] for name in (OPTIONS, RULES, FILES, CONFIGURATION, MISCELLANEOUS)})
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                arguments.append(record)
            else:
                sections.setdefault(getattr(param, "rich_help_panel", None) or OPTIONS, []).append(record)
        # One column for every section: the first term of each padded to the widest (up
        # to COLUMN; a longer term has its help on the next line).
        width = min(
            max((len(term) for records in (arguments, *sections.values()) for term, _ in records), default=0), COLUMN
        )
        for title, records in (("Arguments", arguments), *sections.items()):
            if records:
                records[0] = (records[0][0].ljust(width), records[0][1])
                with formatter.section(title):
                    formatter.write_dl(records, col_max=COLUMN)


Paths = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="[PATH]...",
        help="Files or folders (Python, stubs, Markdown, reST in them), or - for stdin. Default: the current folder.",
        show_default=False,
    ),
]
FixOption = Annotated[bool, typer.Option("--fix", help="Rewrite the files, as `acp-migrate fix` does.")]
ShowFixesOption = Annotated[
    bool, typer.Option("--show-fixes", help="List the findings fixed (check: fixable), per file and rule.")
]
ExitZeroOption = Annotated[
    bool, typer.Option("--exit-zero", help="Exit 0 even with findings or changes (2 still means errors).")
]
ExitNonZeroOnFixOption = Annotated[
    bool, typer.Option("--exit-non-zero-on-fix", help="Exit 1 when files were fixed, even if nothing is left.")
]
OutputFileOption = Annotated[
    str | None, typer.Option("--output-file", "-o", metavar="FILE", help="Write the report to FILE instead of stdout.")
]
ConfigOption = Annotated[
    str | None,
    typer.Option(
        "--config",
        metavar="FILE",
        help="Use this pyproject.toml (or TOML file) instead of discovery.",
        rich_help_panel=CONFIGURATION,
    ),
]
IsolatedOption = Annotated[
    bool, typer.Option("--isolated", help="Ignore every configuration file.", rich_help_panel=CONFIGURATION)
]
SelectOption = Annotated[
    list[str] | None,
    typer.Option(
        "--select",
        metavar="CODES",
        help="Rules to run: codes, prefixes (ACP00) or ALL, comma-separated. Replaces the file's select and ignore.",
        rich_help_panel=RULES,
    ),
]
IgnoreOption = Annotated[
    list[str] | None,
    typer.Option(
        "--ignore",
        metavar="CODES",
        help="Rules not to run: codes or prefixes, comma-separated. Adds to the file's ignore.",
        rich_help_panel=RULES,
    ),
]
ExcludeOption = Annotated[
    list[str] | None,
    typer.Option(
        "--exclude", metavar="GLOBS", help="Replace the excluded globs (comma-separated).", rich_help_panel=FILES
    ),
]
ExtendExcludeOption = Annotated[
    list[str] | None,
    typer.Option(
        "--extend-exclude", metavar="GLOBS", help="More excluded globs (comma-separated).", rich_help_panel=FILES
    ),
]
RuntimeImportOption = Annotated[
    str | None,
    typer.Option(
        "--runtime-import",
        metavar="MODULE",
        help="Where migrated code imports the shim from: 'vendored' (default: a copy fix writes "
        "beside the module) or a module path such as acp_migrate.runtime.",
        rich_help_panel=CONFIGURATION,
    ),
]
TargetSdkOption = Annotated[
    str | None,
    typer.Option(
        "--target-sdk",
        metavar="VERSION",
        help="The agent-client-protocol release to migrate to (default: the newest the project's "
        "requirement on it admits; none stated: no SDK rules).",
        rich_help_panel=CONFIGURATION,
    ),
]
GitignoreOption = Annotated[
    bool | None,
    typer.Option(
        "--respect-gitignore/--no-respect-gitignore",
        help="Skip the files git ignores (default: on).",
        show_default=False,
        rich_help_panel=FILES,
    ),
]
ForceExcludeOption = Annotated[
    bool | None,
    typer.Option(
        "--force-exclude/--no-force-exclude",
        help="Apply exclusions to paths given explicitly too (pre-commit).",
        show_default=False,
        rich_help_panel=FILES,
    ),
]
UnusedOption = Annotated[
    bool,
    typer.Option(
        "--report-unused-suppressions",
        help="Report `# acp-migrate: ignore` comments that silence nothing (ACP100).",
        rich_help_panel=RULES,
    ),
]
StdinFilenameOption = Annotated[
    str | None,
    typer.Option(
        "--stdin-filename",
        metavar="PATH",
        help="With PATH -: the file the code on stdin stands for.",
        rich_help_panel=FILES,
    ),
]
QuietOption = Annotated[
    bool, typer.Option("--quiet", "-q", help="Findings only: no summary, no progress.", rich_help_panel=MISCELLANEOUS)
]
VerboseOption = Annotated[
    bool,
    typer.Option(
        "--verbose",
        "-v",
        help="Also say which configuration and rules were used, and the time (stderr).",
        rich_help_panel=MISCELLANEOUS,
    ),
]
NoColorOption = Annotated[
    bool,
    typer.Option("--no-color", help="Never colour the output (only a terminal's is).", rich_help_panel=MISCELLANEOUS),
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


OutputFormatOption = Annotated[
    OutputFormat,
    typer.Option(
        "--output-format",
        metavar="FORMAT",
        help="text, concise (findings only), json, github (annotations) or sarif.",
        show_default=False,
    ),
]
StatisticsOption = Annotated[
    bool, typer.Option("--statistics", help="Count the findings per rule instead of listing them.")
]


@dataclass
class Common:
    """The options every file command takes (its parameters of the same names)."""

    paths: list[str]
    config: str | None
    isolated: bool
    select: list[str] | None
    ignore: list[str] | None
    exclude: list[str] | None
    extend_exclude: list[str] | None
    runtime_import: str | None
    target_sdk: str | None
    respect_gitignore: bool | None
    force_exclude: bool | None
    report_unused_suppressions: bool
    stdin_filename: str | None
    output_file: str | None
    exit_zero: bool
    quiet: bool
    verbose: bool
    no_color: bool

    @property
    def stdin(self) -> bool:
        return "-" in self.paths

    def options(self) -> Options:
        """The merged configuration; every problem of the flags and of the file at once (exit 2)."""
        if self.stdin and len(self.paths) > 1:
            _usage_error("`-` (stdin) cannot be combined with other paths")
        if self.stdin_filename is not None and not self.stdin:
            _usage_error("--stdin-filename needs the path `-`")
        if self.quiet and self.verbose:
            _usage_error("--quiet and --verbose cannot be combined")
        given = {
            "select": _split(self.select),
            "ignore": _split(self.ignore),
            "exclude": _split(self.exclude),
            "extend_exclude": _split(self.extend_exclude),
            "runtime_import": self.runtime_import,
            "target_sdk": self.target_sdk,
            "respect_gitignore": self.respect_gitignore,
            "force_exclude": self.force_exclude,
            "report_unused_suppressions": self.report_unused_suppressions or None,
        }
        given = {k: v for k, v in given.items() if v is not None}
        problems: list[str] = []
        valid = {}
        for key, value in given.items():  # each flag alone, so that every bad one is named
            try:
                Overrides(**{key: value})
            except ValueError as error:  # a bad command-line value, named by its flag
                problems += str(error).splitlines()
            else:
                valid[key] = value
        where = [self.stdin_filename] if self.stdin and self.stdin_filename else [] if self.stdin else self.paths
        try:
            options = api.load_options(where, config=self.config, isolated=self.isolated, overrides=Overrides(**valid))
        except ConfigError as error:
            problems += str(error).splitlines()
        if problems:
            _fail("\n".join(problems))
        if self.verbose:
            _say_configuration(self, options)
        return options

    def painter(self, stream) -> Painter:
        return Painter(colour_enabled(stream, no_color=self.no_color))

    def interactive(self) -> bool:
        """Progress and the closing summary: stderr is a terminal and --quiet is not given."""
        return not self.quiet and stream_is_tty(sys.stderr)

    def report_summary(self) -> bool:
        """Whether the report ends with its summary: not with --quiet, nor when the report
        shows on the terminal the closing summary goes to (that one says it, once)."""
        if self.quiet:
            return False
        return not (self.interactive() and self.output_file is None and stream_is_tty(sys.stdout))

    def exit(self, code: int) -> None:
        raise typer.Exit(0 if self.exit_zero and code == 1 else code)

    @property
    def stdin_name(self) -> str:
        return self.stdin_filename or "-"


COMMON = tuple(f.name for f in fields(Common))


def _split(values: list[str] | None) -> list[str] | None:
    if values is None:
        return None
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def _usage_error(message: str) -> None:
    typer.echo(f"error: {shown(message)}", err=True)
    raise typer.Exit(2)


def _fail(message: str):
    for line in message.splitlines():
        typer.echo(f"error: {shown(line)}", err=True)  # a TOML key may hold an escape sequence
    raise typer.Exit(2)


def _show_version(value: bool) -> None:
    if value:
        _echo(f"acp-migrate {__version__}\n")
        raise typer.Exit()


@app.callback()
def _options(
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", "-V", help="Show the version and exit.", callback=_show_version, is_eager=True)
    ] = False,
) -> None:
    """Migrate ACP agent servers from initialize-time slash commands to per-session
    advertisement.

    \b
    Examples:
      acp-migrate check               # report; exit 1 while legacy code is left
      acp-migrate diff . | git apply  # the same as `acp-migrate fix .`
      acp-migrate rules ACP001        # a rule's documentation
    """
    if ctx.invoked_subcommand is None:
        _echo(ctx.get_help() + "\n")
        raise typer.Exit(0)


def _common(values: dict) -> Common:
    values = {name: values[name] for name in COMMON if name in values}
    values["paths"] = values.get("paths") or []
    return Common(**values)


@app.command(cls=Command, short_help="Report legacy patterns; never writes (--fix: as fix).")
def check(
    paths: Paths = None,
    fix: FixOption = False,
    show_fixes: ShowFixesOption = False,
    exit_zero: ExitZeroOption = False,
    exit_non_zero_on_fix: ExitNonZeroOnFixOption = False,
    output_format: OutputFormatOption = OutputFormat.TEXT,
    output_file: OutputFileOption = None,
    statistics: StatisticsOption = False,
    diff: Annotated[bool, typer.Option("--diff", hidden=True)] = False,
    select: SelectOption = None,
    ignore: IgnoreOption = None,
    report_unused_suppressions: UnusedOption = False,
    exclude: ExcludeOption = None,
    extend_exclude: ExtendExcludeOption = None,
    respect_gitignore: GitignoreOption = None,
    force_exclude: ForceExcludeOption = None,
    stdin_filename: StdinFilenameOption = None,
    config: ConfigOption = None,
    isolated: IsolatedOption = False,
    runtime_import: RuntimeImportOption = None,
    target_sdk: TargetSdkOption = None,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
    no_color: NoColorOption = False,
) -> None:
    """Report legacy patterns; never writes (with --fix: rewrites, as `fix`).

    Exit 0 clean, 1 findings, 2 a file, path, option or configuration could not
    be used.

    \b
    Examples:
      acp-migrate check src tests
      acp-migrate check --select ACP00 --ignore ACP006 --statistics
      acp-migrate check --output-format github --exit-zero -o report.txt
    """
    common = _common(locals())
    if diff:  # ruff's `check --diff`: a command of its own here
        _usage_error("`check --diff` is a command here: `acp-migrate diff [PATH]...` prints the patch fix would apply")
    if fix:
        if output_format not in (OutputFormat.TEXT, OutputFormat.CONCISE) or statistics:
            _usage_error("--fix works with --output-format text or concise, without --statistics")
        _fix(common, show_fixes, exit_non_zero_on_fix, concise=output_format is OutputFormat.CONCISE)
    if exit_non_zero_on_fix:
        _usage_error("--exit-non-zero-on-fix needs --fix")
    if statistics and output_format not in (OutputFormat.TEXT, OutputFormat.CONCISE, OutputFormat.JSON):
        _usage_error("--statistics works with --output-format text, concise or json")
    if show_fixes and (statistics or output_format not in (OutputFormat.TEXT, OutputFormat.CONCISE)):
        _usage_error("--show-fixes works with --output-format text or concise, without --statistics")
    options = common.options()
    with _Report(common) as report:
        if common.stdin:
            source = api.check_source(sys.stdin.buffer.read(), path=common.stdin_name, options=options)
            result, elapsed = _stdin_result(source), None
        else:
            run_report = _run_paths(api.check_paths, common, options)
            result, elapsed = run_report.result, run_report.elapsed
        typer.echo(render_errors(result), nl=False, err=True)
        report.write(_render_check(result, output_format, statistics, show_fixes, common, report.paint))
    _closing_summary(common, result, elapsed, by_rule=not statistics)
    common.exit(result.exit_code())


def _render_check(
    result: RunResult, output_format: OutputFormat, statistics: bool, show_fixes: bool, common: Common, paint: Painter
) -> str:
    paint = paint if output_format is OutputFormat.TEXT else PLAIN
    summary = common.report_summary() or (common.stdin and not common.quiet)
    if statistics:
        from acp_migrate.report.statistics import render_statistics, render_statistics_json
        from acp_migrate.report.text import render_summary

        names = _rule_names() if result.findings else {}
        if output_format is OutputFormat.JSON:
            return render_statistics_json(result, names)
        table = render_statistics(result, names)
        return table + render_summary(result) if summary and output_format is OutputFormat.TEXT else table
    if output_format is OutputFormat.JSON:
        from acp_migrate.report.json_format import render_json

        return render_json(result)
    if output_format is OutputFormat.GITHUB:
        from acp_migrate.report.github import render_github

        return render_github(result)
    if output_format is OutputFormat.SARIF:
        from acp_migrate.report.sarif import render_sarif

        return render_sarif(result, api.list_rules(wire=False))  # the source rules: what check runs
    from acp_migrate.report.text import render_check, render_concise, render_fixes, render_summary

    fixes = render_fixes(result, _rule_names(), paint=paint) if show_fixes and not common.quiet else ""
    if output_format is OutputFormat.CONCISE:
        return render_concise(result) + fixes
    # The fixes go between the findings and the summary, as ruff's.
    findings = render_check(result, paint=paint, summary=False)
    return findings + fixes + (render_summary(result, paint=paint) if summary else "")


@app.command(cls=Command, short_help="Print the patch fix would apply; never writes.")
def diff(
    paths: Paths = None,
    exit_zero: ExitZeroOption = False,
    output_file: OutputFileOption = None,
    select: SelectOption = None,
    ignore: IgnoreOption = None,
    report_unused_suppressions: UnusedOption = False,
    exclude: ExcludeOption = None,
    extend_exclude: ExtendExcludeOption = None,
    respect_gitignore: GitignoreOption = None,
    force_exclude: ForceExcludeOption = None,
    stdin_filename: StdinFilenameOption = None,
    config: ConfigOption = None,
    isolated: IsolatedOption = False,
    runtime_import: RuntimeImportOption = None,
    target_sdk: TargetSdkOption = None,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
    no_color: NoColorOption = False,
) -> None:
    """Print the unified diff `fix` would apply; never writes.

    Exit 0 nothing to change, 1 changes, 2 a file, path, option or configuration
    could not be used.

    \b
    Examples:
      acp-migrate diff | git apply       # the same as `acp-migrate fix`
      acp-migrate diff src -o migration.patch
      acp-migrate diff - --stdin-filename agent.py < agent.py
    """
    common = _common(locals())
    from acp_migrate.report.diff import colour_patch, render_diff

    options = common.options()
    with _Report(common) as report:
        if common.stdin:
            source = api.diff_source(sys.stdin.buffer.read(), path=common.stdin_name, options=options)
            result, elapsed = _stdin_result(source), None
            patch = source.patch if isinstance(source.patch, bytes) else source.patch.encode()
        else:
            run_report = _run_paths(api.diff_paths, common, options)
            result, elapsed = run_report.result, run_report.elapsed
            patch = render_diff(result)
        typer.echo(render_errors(result), nl=False, err=True)
        report.write(colour_patch(patch) if report.paint.enabled else patch)
    _closing_summary(common, result, elapsed)
    common.exit(result.exit_code())


@app.command(cls=Command, short_help="Rewrite the files in place.")
def fix(
    paths: Paths = None,
    show_fixes: ShowFixesOption = False,
    exit_zero: ExitZeroOption = False,
    exit_non_zero_on_fix: ExitNonZeroOnFixOption = False,
    output_file: OutputFileOption = None,
    select: SelectOption = None,
    ignore: IgnoreOption = None,
    report_unused_suppressions: UnusedOption = False,
    exclude: ExcludeOption = None,
    extend_exclude: ExtendExcludeOption = None,
    respect_gitignore: GitignoreOption = None,
    force_exclude: ForceExcludeOption = None,
    stdin_filename: StdinFilenameOption = None,
    config: ConfigOption = None,
    isolated: IsolatedOption = False,
    runtime_import: RuntimeImportOption = None,
    target_sdk: TargetSdkOption = None,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
    no_color: NoColorOption = False,
) -> None:
    """Rewrite files in place (with -: stdin to stdout); `check --fix` is the same.

    Exit 0 nothing left to do, 1 findings need a person, 2 a file, path, option
    or configuration could not be used. With --exit-non-zero-on-fix, fixed
    files exit 1 too.

    \b
    Examples:
      acp-migrate fix --show-fixes
      acp-migrate fix src --select ACP001,ACP002
      acp-migrate fix - --stdin-filename agent.py < agent.py > fixed.py
    """
    _fix(_common(locals()), show_fixes, exit_non_zero_on_fix)


def _fix(common: Common, show_fixes: bool, exit_non_zero_on_fix: bool, *, concise: bool = False) -> None:
    from acp_migrate.report.text import format_finding, render_fix

    if common.exit_zero and exit_non_zero_on_fix:
        _usage_error("--exit-zero and --exit-non-zero-on-fix cannot be combined")
    options = common.options()
    if common.stdin:
        # Editors: the code on stdout (unchanged on error), everything else on stderr (or -o).
        source = api.fix_source(sys.stdin.buffer.read(), path=common.stdin_name, options=options)
        result = _stdin_result(source)
        output = source.output if isinstance(source.output, bytes) else source.output.encode()
        _write_stdout(output)
        typer.echo(render_errors(result), nl=False, err=True)
        with _Report(common, stderr=True) as report:
            report.write("".join(format_finding(f, report.paint) + "\n" for f in result.remaining))
        common.exit(1 if exit_non_zero_on_fix and source.changed else source.exit_code)
    with _Report(common) as report:
        run_report = _run_paths(api.fix_paths, common, options)
        result = run_report.result
        typer.echo(render_errors(result), nl=False, err=True)
        names = (_rule_names() if any(o.written for o in result.files) else {}) if show_fixes else None
        report.write(
            render_fix(
                result,
                paint=report.paint,
                quiet=common.quiet or concise,
                summary=common.report_summary(),
                show_fixes=names,
            )
        )
    _closing_summary(common, result, run_report.elapsed)
    code = result.exit_code()
    if code == 0 and exit_non_zero_on_fix and any(o.written for o in result.files):
        code = 1
    common.exit(code)


register_probe(app)  # the probe's own command; `acp-migrate probe` runs it alone (__main__)


@app.command(cls=Command, short_help="List the rules, or document one.")
def rules(
    code: Annotated[
        str | None, typer.Argument(metavar="[CODE]", help="Show this rule's documentation.", show_default=False)
    ] = None,
    output_format: Annotated[
        RulesFormat, typer.Option("--output-format", metavar="FORMAT", help="text or json.", show_default=False)
    ] = RulesFormat.TEXT,
) -> None:
    """List every rule (code, name, fixable, summary), or document one with its
    before/after examples.

    \b
    Examples:
      acp-migrate rules
      acp-migrate rules ACP001
      acp-migrate rules --output-format json
    """
    from acp_migrate.report.rules import render_rule_doc, render_rule_json, render_rule_table, render_rule_table_json

    infos = api.list_rules()
    if code is None:
        _echo(render_rule_table_json(infos) if output_format is RulesFormat.JSON else render_rule_table(infos))
        return
    try:
        info = api.rule_info(code)
    except KeyError:
        _fail(f"unknown rule code {code!r} (known: {', '.join(i.code for i in infos)})")
    if output_format is RulesFormat.JSON:
        _echo(render_rule_json(info))
    else:
        _echo(render_rule_doc(info))


# -- helpers ---------------------------------------------------------------------------


class _Report:
    """Where a command's report goes: stdout, or `-o FILE` (created with its folders, never
    coloured). Opened before the run, so that a file that cannot be written stops the
    command (exit 2) before `fix` rewrites anything."""

    def __init__(self, common: Common, *, stderr: bool = False) -> None:
        self.common = common
        self.stderr = stderr  # without -o: stderr instead of stdout
        self.file: IO[bytes] | None = None
        self.paint = PLAIN

    def __enter__(self) -> Self:
        path = self.common.output_file
        if path is None:
            self.paint = self.common.painter(sys.stderr if self.stderr else sys.stdout)
            return self
        try:
            folder = os.path.dirname(os.path.abspath(path))
            os.makedirs(folder, exist_ok=True)
            self.file = open(path, "wb")  # closed by __exit__
        except OSError as error:
            _fail(f"cannot write the report to {path}: {error.strerror or error}")
        return self

    def write(self, data: str | bytes) -> None:
        if self.file is not None:
            try:
                self.file.write(data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data)
                self.file.flush()
            except OSError as error:
                _fail(f"cannot write the report to {self.common.output_file}: {_os_reason(error)}")
        elif self.stderr:
            text = data.decode("utf-8", "surrogateescape") if isinstance(data, bytes) else data
            typer.echo(text, nl=False, err=True)
        elif isinstance(data, bytes):
            _write_stdout(data)
        else:
            _echo(data)

    def __exit__(self, *exc_info) -> None:
        if self.file is not None:
            try:
                self.file.close()
            except OSError as error:
                if exc_info[0] is not None:
                    return  # the write failed already, and said so
                _fail(f"cannot write the report to {self.common.output_file}: {_os_reason(error)}")


def _run_paths(function, common: Common, options: Options) -> api.RunReport:
    bar = ProgressBar(sys.stderr, paint=common.painter(sys.stderr)) if common.interactive() else None
    try:
        report = function(common.paths, options=options, progress=bar)
    except api.GitUnavailable as error:
        _usage_error(str(error))
    except api.UnfinishedRun as error:
        _fail(str(error))
    except api.StoppedRun as stop:
        if bar is not None:
            bar.close()  # (again below: it clears its line once)
        sys.stderr.write(render_stopped(stop.written))
        raise
    finally:
        if bar is not None:
            bar.close()
    if report.result.finished is not None:
        sys.stderr.write(render_finished(report.result.finished))
    if not report.result.files and not report.result.path_errors:
        # As ruff says it: a wrong folder, or a pattern that excludes everything, must not pass silently.
        typer.echo("warning: No Python files found under the given path(s)", err=True)
    return report


def _closing_summary(common: Common, result: RunResult, elapsed: float | None, *, by_rule: bool = True) -> None:
    """On a terminal: the summary, with the files scanned and the time (stderr). With
    --verbose elsewhere: the files scanned and the time."""
    if elapsed is None:
        return
    if common.interactive():
        names = _rule_names() if by_rule and (result.findings or result.remaining) else {}
        summary = render_run_summary(result, elapsed, names, common.painter(sys.stderr), by_rule=by_rule)
        typer.echo(summary, nl=False, err=True)
    elif common.verbose:
        files = len(result.files)
        typer.echo(f"acp-migrate: {files} {'file' if files == 1 else 'files'} scanned in {elapsed:.2f}s", err=True)


def _say_configuration(common: Common, options: Options) -> None:
    """--verbose: the configuration file used (or why none) and the rules that run, on stderr."""
    from acp_migrate.config import known_codes

    if options.config_file is not None:
        how = " (--config)" if common.config is not None else ""
        used = f"{options.config_file}{how}"
    elif common.isolated:
        used = "none (--isolated): the defaults"
    else:
        used = "none found (no pyproject.toml with [tool.acp-migrate] above the paths): the defaults"
    from acp_migrate.rules import RULES_BY_CODE

    codes = sorted(known_codes())
    enabled = [
        code
        for code in codes
        if options.settings.enabled(code)
        and (code not in RULES_BY_CODE or RULES_BY_CODE[code].runs_with(options.settings))
    ]
    unused = "ACP100"
    if not options.report_unused_suppressions and unused in enabled:
        enabled.remove(unused)  # reported only with --report-unused-suppressions
    rules = ", ".join(enabled) if enabled else "none"
    typer.echo(f"acp-migrate: configuration: {used}", err=True)
    for ignored in options.ignored:
        typer.echo(f"acp-migrate: ignored {ignored}", err=True)
    typer.echo(f"acp-migrate: {options.target_note}", err=True)
    typer.echo(f"acp-migrate: rules: {rules}", err=True)


def _rule_names() -> dict[str, str]:
    return {info.code: info.name for info in api.list_rules()}


def _stdin_result(report: api.SourceReport) -> RunResult:
    outcome = FileOutcome(
        path=report.path,
        findings=report.findings,
        remaining=report.remaining,
        changed=report.changed,
        error=report.error,
        warning=report.warning,
    )
    return RunResult(mode=report.mode, files=[outcome])


class OutputError(Exception):
    """The report could not be written to stdout (a full disk, a closed terminal)."""


def _echo(text: str) -> None:
    """Text to stdout; a failed write is an OutputError (one line, exit 2), not a traceback."""
    try:
        typer.echo(text, nl=False)
    except BrokenPipeError:
        raise  # the reader left (`| head`): __main__ makes it quiet
    except OSError as error:
        raise OutputError(_os_reason(error)) from None


def _write_stdout(data: bytes) -> None:
    try:
        sys.stdout.flush()
        stream = getattr(sys.stdout, "buffer", None)
        if stream is None:  # a text-only stream (tests)
            sys.stdout.write(data.decode("utf-8", "surrogateescape"))
        else:
            stream.write(data)
            stream.flush()
    except BrokenPipeError:
        raise
    except OSError as error:
        raise OutputError(_os_reason(error)) from None


def _os_reason(error: OSError) -> str:
    text = error.strerror or str(error) or type(error).__name__
    return text[:1].lower() + text[1:]


def run_command() -> int:
    """Run the command line in `sys.argv`; return the exit code instead of exiting."""
    try:
        app()
    except SystemExit as exit:
        if exit.code is None or isinstance(exit.code, int):
            return exit.code or 0
        print(exit.code, file=sys.stderr)
        return 1
    except OutputError as error:
        _last_words(f"error: cannot write the output: {error}")
        return 2
    except BrokenPipeError:
        raise  # the reader left early (`| head`): __main__ silences the rest
    except OSError as error:  # click's own output (--help); the files' errors are outcomes
        _last_words(f"error: {_os_reason(error)}")
        return 2
    except Exception as error:  # a crash must not exit 1, which means "findings"; one line, no traceback
        if os.environ.get("ACP_MIGRATE_TRACEBACK"):
            import traceback

            traceback.print_exc()
        detail = str(error).splitlines()[0] if str(error) else ""
        _last_words(f"error: internal error: {type(error).__name__}{': ' + detail if detail else ''}")
        return 2
    return 0


def _last_words(message: str) -> None:
    # What stdout still buffers goes nowhere: writing it at exit would fail again, loudly.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
    try:
        print(message, file=sys.stderr)
    except OSError:
        pass
