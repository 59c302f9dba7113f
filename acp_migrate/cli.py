"""The `acp-migrate` command line: check, diff, fix.

Exit codes (scripts and CI rely on them): 0 nothing to report, 1 findings /
changes / manual work left, 2 a file or path could not be analysed (2 wins).
libcst is imported only when a file needs parsing, so start-up stays light.
"""

from __future__ import annotations

import sys
import traceback
from enum import StrEnum
from typing import Annotated

import typer

from acp_migrate import __version__
from acp_migrate.engine.runner import Mode, RunResult, run
from acp_migrate.report.diff import render_diff
from acp_migrate.report.json_format import render_json
from acp_migrate.report.text import render_check, render_errors, render_fix

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
        help="Files or directories (recursive *.py, *.pyi). Default: the current directory.",
        show_default=False,
    ),
]


class OutputFormat(StrEnum):
    TEXT = "text"
    JSON = "json"


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


@app.command()
def check(
    paths: Paths = None,
    output_format: Annotated[OutputFormat, typer.Option("--output-format", help="Report format.")] = OutputFormat.TEXT,
) -> None:
    """Report legacy patterns; never writes. Exit 0 clean, 1 findings, 2 errors."""
    result = _run(Mode.CHECK, paths)
    typer.echo(render_json(result) if output_format is OutputFormat.JSON else render_check(result), nl=False)
    raise typer.Exit(result.exit_code())


@app.command()
def diff(paths: Paths = None) -> None:
    """Print the unified diff `fix` would apply; never writes. Exit 0 nothing to change, 1 changes, 2 errors."""
    result = _run(Mode.DIFF, paths)
    typer.echo(render_diff(result), nl=False)
    raise typer.Exit(result.exit_code())


@app.command()
def fix(paths: Paths = None) -> None:
    """Rewrite files in place. Exit 0 nothing left to do, 1 manual work remains, 2 errors."""
    result = _run(Mode.FIX, paths)
    typer.echo(render_fix(result), nl=False)
    raise typer.Exit(result.exit_code())


def _run(mode: Mode, paths: list[str] | None) -> RunResult:
    result = run(mode, paths or ())
    # Errors go to stderr in every format, so stdout stays parseable (JSON, patches).
    typer.echo(render_errors(result), nl=False, err=True)
    return result


def main() -> None:
    try:
        app()
    except Exception:  # a crash must not exit 1, which means "findings"
        traceback.print_exc()
        sys.exit(2)
