"""`acp-migrate probe [OPTIONS] [--] CMD [ARGS...]`: the options, the run, the report.

One typer command (`probe`): `acp_migrate/cli.py` lists it with the codemod's commands,
and `acp_migrate/__main__.py` runs it alone (`main`), so that `acp-migrate probe` starts
without importing the codemod. So this module imports typer and the probe's caps
only; the run and the report come when the command runs. Everything from CMD on is the
agent's command line (`--` before it is optional). Exit codes: 0 clean, 1 findings, 2
the agent could not be driven or a bad option.
"""

# (No `from __future__ import annotations` here: typer reads every option's annotation.)
import os
import sys
from typing import Annotated

import typer

from acp_migrate.probe.limits import MAX_BYTES, MAX_FINDINGS, MAX_FRAMES

KINDS = ("new", "load", "resume", "fork")  # what --require names (report.KINDS: their methods)

HELP_OPTIONS = ["-h", "--help"]
SHORT_HELP = "Start an agent over stdio; check what it sends (ACP101...)."
EPILOG = """\
\b
Steps: initialize, authenticate (--authenticate), session/new,
session/prompt (--prompt), then session/load, session/resume and
session/fork of that session (each when initialize advertises it, or with
--all; each --repeat times, together with --burst), session/close
(advertised, or --all); --settle seconds after each answer.

\b
After the setups, up to --list-wait seconds for the command lists still
owed. The report says what each kind of setup exercised, or why not.

\b
Exit codes: 0 no findings, 1 findings, no command list at all, or a kind
of setup --require names not exercised, 2 the agent could not be driven
(did not start, no answer in time, crashed: the last lines of its stderr
are shown).

\b
Examples:
  acp-migrate probe -- python agent.py
  acp-migrate probe --all --prompt "/help" -- node dist/agent.js
  acp-migrate probe --prompt hi --repeat 3 --burst -- node dist/agent.js
  acp-migrate probe --authenticate api-key --env KEY=... -- my-agent --acp
  acp-migrate probe --output-format timeline -- opencode acp
  acp-migrate probe --output-format sarif -o probe.sarif -- uv run agent
  acp-migrate probe --require new,load,fork --ignore POLICY -- my-agent
  acp-migrate probe --replay run.jsonl --output-format timeline
"""
# Options end where CMD starts: what follows is the agent's, even `--timeout 1`.
CONTEXT_SETTINGS = {"help_option_names": HELP_OPTIONS, "allow_interspersed_args": False}


def _seconds(value: float | None) -> float | None:
    if value is not None and value < 0:
        raise typer.BadParameter("must not be negative")
    return value


def _count(value: int) -> int:
    if value < 1:
        raise typer.BadParameter("must be at least 1")
    return value


def _seconds_option(name: str, help: str) -> typer.models.OptionInfo:
    return typer.Option(name, callback=_seconds, metavar="S", show_default=False, help=help)


def _count_option(name: str, help: str) -> typer.models.OptionInfo:
    return typer.Option(name, callback=_count, metavar="N", show_default=False, help=help)


def _format(value: str) -> str:
    from acp_migrate.probe.report import FORMATS

    if value not in FORMATS:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(FORMATS)}")
    return value


def probe(
    command: Annotated[
        list[str] | None,
        typer.Argument(metavar="CMD [ARGS]...", help="The agent's command line.", show_default=False),
    ] = None,
    try_all: Annotated[
        bool, typer.Option("--all", help="Try load, resume, fork and close even when not advertised.")
    ] = False,
    prompt: Annotated[
        str | None,
        typer.Option("--prompt", metavar="TEXT", help="Send one prompt to the new session; watch its turn."),
    ] = None,
    prompt_timeout: Annotated[
        float | None,
        _seconds_option(
            "--prompt-timeout",
            "For the prompt's turn, then session/cancel; the setups go on (default: half of what is left).",
        ),
    ] = None,
    authenticate: Annotated[
        str | None,
        typer.Option(
            "--authenticate", metavar="METHOD", help="Send authenticate with this method id (one initialize offers)."
        ),
    ] = None,
    repeat: Annotated[
        int,
        _count_option("--repeat", "Set up each kind of session N times (forks of the prompted one too; default 1)."),
    ] = 1,
    burst: Annotated[
        bool, typer.Option("--burst", help="Send each kind's setups together, not waiting for answers (--repeat 2+).")
    ] = False,
    settle: Annotated[
        float,
        _seconds_option("--settle", "Wait for late frames after each answer (default 1)."),
    ] = 1.0,
    timeout: Annotated[
        float,
        _seconds_option("--timeout", "The whole run; the agent is killed then (default 60)."),
    ] = 60.0,
    initialize_timeout: Annotated[
        float,
        _seconds_option("--initialize-timeout", "For the initialize answer (default 30)."),
    ] = 30.0,
    request_timeout: Annotated[
        float,
        _seconds_option(
            "--request-timeout", "For each other answer; a prompt gets what is left of --timeout (default 15)."
        ),
    ] = 15.0,
    protocol_version: Annotated[
        int,
        typer.Option(
            "--protocol-version", metavar="N", show_default=False, help="The version the client asks for (default 1)."
        ),
    ] = 1,
    cwd: Annotated[
        str | None,
        typer.Option("--cwd", metavar="DIR", help="The agent's folder and the sessions' cwd (default: this one)."),
    ] = None,
    env: Annotated[
        list[str] | None,
        typer.Option("--env", metavar="KEY=VALUE", help="Set a variable for the agent (repeatable)."),
    ] = None,
    output_format: Annotated[
        str,
        typer.Option(
            "--output-format",
            metavar="FORMAT",
            callback=_format,
            show_default=False,
            help="text (default), json, github, sarif, timeline or mermaid.",
        ),
    ] = "text",
    output_file: Annotated[
        str | None,
        typer.Option("--output-file", "-o", metavar="FILE", help="Write the report to FILE instead of stdout."),
    ] = None,
    exit_zero: Annotated[
        bool, typer.Option("--exit-zero", help="Exit 0 even with findings (2 still means not driven).")
    ] = False,
    select: Annotated[
        list[str] | None,
        typer.Option(
            "--select", metavar="CODES", help="Rules to run: codes, prefixes, ALL, SPEC or POLICY, comma-separated."
        ),
    ] = None,
    ignore: Annotated[
        list[str] | None,
        typer.Option(
            "--ignore", metavar="CODES", help="Rules not to run, comma-separated (POLICY: the probe's own policy's)."
        ),
    ] = None,
    max_frames: Annotated[
        int,
        _count_option("--max-frames", f"Stop the run after N frames, both directions (default {MAX_FRAMES})."),
    ] = MAX_FRAMES,
    max_bytes: Annotated[
        int,
        _count_option("--max-bytes", f"Stop once the agent wrote N bytes on stdout (default {MAX_BYTES})."),
    ] = MAX_BYTES,
    max_findings: Annotated[
        int,
        _count_option(
            "--max-findings", f"Findings (and notes) a report shows; the count is of all (default {MAX_FINDINGS})."
        ),
    ] = MAX_FINDINGS,
    record: Annotated[
        str | None,
        typer.Option(
            "--record",
            metavar="FILE",
            help="Also write the run as JSON lines: every frame (direction, ms, raw), notes.",
        ),
    ] = None,
    replay: Annotated[
        str | None,
        typer.Option("--replay", metavar="FILE", help="Judge a --record file again, offline (no CMD)."),
    ] = None,
    require: Annotated[
        list[str] | None,
        typer.Option(
            "--require",
            metavar="KINDS",
            help="Setup kinds that must be exercised to pass: new, load, resume, fork, comma-separated.",
        ),
    ] = None,
    list_wait: Annotated[
        float,
        _seconds_option("--list-wait", "After the setups, wait up to S for the command lists still owed (default 10)."),
    ] = 10.0,
) -> None:
    """Start an ACP agent over stdio, talk to it as a client, and check what it
    sends against the wire rules (acp-migrate rules ACP101...)."""
    raise typer.Exit(_run(locals()))


def _run(given: dict) -> int:
    command = given["command"] or []
    if not command and not given["replay"]:
        return _error("no agent command (acp-migrate probe [OPTIONS] -- CMD [ARGS...])")
    if command and given["replay"]:
        return _error("--replay judges a recording: no agent command with it")
    require = _codes(given["require"])
    unknown_kinds = [kind for kind in require if kind not in KINDS]
    if unknown_kinds:
        return _error(f"--require {', '.join(unknown_kinds)}: the kinds are {', '.join(KINDS)}")
    env = {}
    for item in given["env"] or ():
        key, equals, value = item.partition("=")
        if not equals or not key:
            return _error(f"--env {item!r}: expected KEY=VALUE")
        env[key] = value
    if given["cwd"] is not None and not os.path.isdir(given["cwd"]):
        return _error(f"--cwd {given['cwd']!r} is not a folder")

    from acp_migrate.probe.checks import enabled_bases, enabled_codes, unknown_selectors

    select, ignore = _codes(given["select"]), _codes(given["ignore"])
    unknown = unknown_selectors(select + ignore)
    if unknown:
        return _error(f"unknown rule selector(s): {', '.join(unknown)} (acp-migrate rules lists them)")
    codes = enabled_codes(select or None, ignore)
    judging = {"bases": enabled_bases(select, ignore), "require": require}

    output_file = given["output_file"]
    try:  # opened before the run, as check does: a report that cannot be written stops it
        output = open(output_file, "w", encoding="utf-8") if output_file else None
    except OSError as exc:
        return _error(f"cannot write the report to {output_file}: {exc.strerror}")

    from acp_migrate.probe import ProbeOptions, judge, replay, run_probe

    if given["replay"]:
        try:
            recorded = replay(given["replay"])
        except (OSError, ValueError, KeyError) as exc:
            return _error(f"--replay {given['replay']}: not a --record file ({exc})")
        return _report(judge(recorded, codes, given["max_findings"], **judging), given, output)
    options = ProbeOptions(
        command=command,
        cwd=given["cwd"],
        env=env,
        try_all=given["try_all"],
        prompt=given["prompt"],
        settle=given["settle"],
        timeout=given["timeout"],
        initialize_timeout=given["initialize_timeout"],
        request_timeout=given["request_timeout"],
        protocol_version=given["protocol_version"],
        prompt_timeout=given["prompt_timeout"],
        authenticate=given["authenticate"],
        repeat=max(given["repeat"], 2) if given["burst"] else given["repeat"],
        burst=given["burst"],
        max_frames=given["max_frames"],
        max_bytes=given["max_bytes"],
        list_wait=given["list_wait"],
    )
    try:  # (acp_migrate/__main__.py turns Ctrl-C and SIGTERM into KeyboardInterrupt, and sets the exit code)
        result = run_probe(options, codes=codes, max_findings=given["max_findings"], **judging)
    except KeyboardInterrupt:  # the agent's process group was killed on the way out
        print("acp-migrate probe: interrupted", file=sys.stderr)
        return 130
    return _report(result, given, output)


def _report(result, given: dict, output) -> int:
    from acp_migrate.probe.report import render, render_errors

    if given["record"]:
        write_record(given["record"], result)
    text = render(result, given["output_format"])
    if output is not None:
        with output:
            output.write(text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    sys.stderr.write(render_errors(result))
    return 0 if given["exit_zero"] and result.exit_code == 1 else result.exit_code


def _error(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _codes(values: list[str] | None) -> list[str]:
    return [code.strip() for value in values or () for code in value.split(",") if code.strip()]


def write_record(path: str, result) -> None:
    import json

    with open(path, "w", encoding="utf-8") as record:
        for frame in result.transcript.frames:
            entry = {
                "frame": frame.index,
                "direction": frame.direction,
                "ms": round(frame.at * 1000, 1),
                "raw": frame.raw,
            }
            record.write(json.dumps(entry) + "\n")


def register(app: typer.Typer) -> None:
    """Add the command to `app` (the whole command line, or `main`'s own)."""
    app.command("probe", short_help=SHORT_HELP, epilog=EPILOG, context_settings=CONTEXT_SETTINGS)(probe)


def main(argv: list[str]) -> int:
    """`acp-migrate probe ARGV`: the command alone, its exit code returned."""
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
    register(app)
    try:
        typer.main.get_command(app).main(args=argv, prog_name="acp-migrate probe")
    except SystemExit as exit:
        return exit.code if isinstance(exit.code, int) else 0 if exit.code is None else 1
    return 0
