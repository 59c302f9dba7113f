"""`acp-migrate probe [OPTIONS] [--] CMD [ARGS...]`: the options, the run, the report.

Parsed with argparse, not typer: `acp-migrate probe` reaches this module before the
codemod's command line is imported (`acp_migrate/__main__.py`), so it starts fast.
Everything from CMD on is the agent's command line (`--` before it is optional).
Exit codes: 0 clean, 1 findings, 2 the agent could not be driven or a bad option.
"""

from __future__ import annotations

import argparse
import os
import sys

from acp_migrate.probe.limits import MAX_BYTES, MAX_FINDINGS, MAX_FRAMES
from acp_migrate.probe.report import FORMATS

EPILOG = """\
steps: initialize, authenticate (--authenticate), session/new, session/prompt
(--prompt), then session/load, session/resume, session/fork of the prompted session
(each when initialize advertises it, or with --all; each --repeat times, together
with --burst), session/close (advertised, or --all); --settle seconds after each answer.

exit codes: 0 no findings, 1 findings, 2 the agent could not be driven
(did not start, no answer in time, crashed: its stderr's last lines are shown).

examples:
  acp-migrate probe -- python agent.py
  acp-migrate probe --all --prompt "/help" -- node dist/agent.js
  acp-migrate probe --prompt hello --repeat 3 --burst -- node dist/agent.js
  acp-migrate probe --authenticate api-key --env API_KEY=... -- my-agent --acp
  acp-migrate probe --output-format timeline -- opencode acp
  acp-migrate probe --output-format sarif -o probe.sarif --ignore ACP109 -- uv run my-agent
"""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="acp-migrate probe",
        description="Start an ACP agent over stdio, talk to it as a client, and check what it sends "
        "against the wire rules (acp-migrate rules ACP101...).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--all", dest="try_all", action="store_true", help="try load, resume, fork and close even when not advertised"
    )
    p.add_argument(
        "--prompt", metavar="TEXT", help="send one prompt to the new session and watch the updates of the turn"
    )
    p.add_argument(
        "--prompt-timeout",
        type=_seconds,
        metavar="S",
        help="for the prompt's turn, then session/cancel and the setups go on (default: half of what is left)",
    )
    p.add_argument(
        "--authenticate",
        metavar="METHOD",
        help="send authenticate with this method id (one of those initialize advertises) before the sessions",
    )
    p.add_argument(
        "--repeat",
        type=_count,
        default=1,
        metavar="N",
        help="set up each kind of session N times (forks of the prompted session too; default 1)",
    )
    p.add_argument(
        "--burst",
        action="store_true",
        help="send each kind's setups together, without waiting for an answer (--repeat, at least 2)",
    )
    p.add_argument(
        "--settle",
        type=_seconds,
        default=1.0,
        metavar="S",
        help="seconds to wait for late frames after each answer (default 1)",
    )
    p.add_argument(
        "--timeout",
        type=_seconds,
        default=60.0,
        metavar="S",
        help="the whole run; the agent is killed then (default 60)",
    )
    p.add_argument(
        "--initialize-timeout", type=_seconds, default=30.0, metavar="S", help="for the initialize answer (default 30)"
    )
    p.add_argument(
        "--request-timeout",
        type=_seconds,
        default=15.0,
        metavar="S",
        help="for each other answer; a prompt gets what is left of --timeout (default 15)",
    )
    p.add_argument(
        "--protocol-version", type=int, default=1, metavar="N", help="the version the client asks for (default 1)"
    )
    p.add_argument(
        "--cwd", metavar="DIR", help="the agent's working folder and the sessions' cwd (default: the current folder)"
    )
    p.add_argument(
        "--env", action="append", default=[], metavar="KEY=VALUE", help="set a variable for the agent (repeatable)"
    )
    p.add_argument(
        "--output-format",
        choices=FORMATS,
        default="text",
        metavar="FORMAT",
        help="text (default), json, github, sarif, timeline or mermaid",
    )
    p.add_argument("-o", "--output-file", metavar="FILE", help="write the report to FILE instead of stdout")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings (2 still means not driven)")
    p.add_argument("--select", metavar="CODES", help="rules to run, comma-separated: codes, prefixes or ALL")
    p.add_argument("--ignore", metavar="CODES", help="rules not to run, comma-separated")
    p.add_argument(
        "--max-frames",
        type=_count,
        default=MAX_FRAMES,
        metavar="N",
        help=f"stop the run after N frames, both directions (default {MAX_FRAMES})",
    )
    p.add_argument(
        "--max-bytes",
        type=_count,
        default=MAX_BYTES,
        metavar="N",
        help=f"stop the run once the agent wrote N bytes on stdout (default {MAX_BYTES})",
    )
    p.add_argument(
        "--max-findings",
        type=_count,
        default=MAX_FINDINGS,
        metavar="N",
        help=f"findings (and notes) a report shows; the count is of all (default {MAX_FINDINGS})",
    )
    p.add_argument("--record", metavar="FILE", help="also write every frame as JSON lines (direction, ms, raw)")
    p.add_argument("command", nargs=argparse.REMAINDER, metavar="CMD [ARGS...]", help="the agent's command line")
    return p


def _seconds(text: str) -> float:
    value = float(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must not be negative")
    return value


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _codes(text: str | None) -> list[str]:
    return [code.strip() for code in (text or "").split(",") if code.strip()]


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        print("error: no agent command (acp-migrate probe [OPTIONS] -- CMD [ARGS...])", file=sys.stderr)
        return 2
    env = {}
    for item in args.env:
        key, equals, value = item.partition("=")
        if not equals or not key:
            print(f"error: --env {item!r}: expected KEY=VALUE", file=sys.stderr)
            return 2
        env[key] = value
    if args.cwd is not None and not os.path.isdir(args.cwd):
        print(f"error: --cwd {args.cwd!r} is not a folder", file=sys.stderr)
        return 2

    from acp_migrate.probe.checks import enabled_codes, unknown_selectors

    select, ignore = _codes(args.select), _codes(args.ignore)
    unknown = unknown_selectors(select + ignore)
    if unknown:
        print(f"error: unknown rule selector(s): {', '.join(unknown)} (acp-migrate rules lists them)", file=sys.stderr)
        return 2
    codes = enabled_codes(select or None, ignore)

    try:  # opened before the run, as check does: a report that cannot be written stops it
        output = open(args.output_file, "w", encoding="utf-8") if args.output_file else None
    except OSError as exc:
        print(f"error: cannot write the report to {args.output_file}: {exc.strerror}", file=sys.stderr)
        return 2

    from acp_migrate.probe import ProbeOptions, run_probe

    options = ProbeOptions(
        command=command,
        cwd=args.cwd,
        env=env,
        try_all=args.try_all,
        prompt=args.prompt,
        settle=args.settle,
        timeout=args.timeout,
        initialize_timeout=args.initialize_timeout,
        request_timeout=args.request_timeout,
        protocol_version=args.protocol_version,
        prompt_timeout=args.prompt_timeout,
        authenticate=args.authenticate,
        repeat=max(args.repeat, 2) if args.burst else args.repeat,
        burst=args.burst,
        max_frames=args.max_frames,
        max_bytes=args.max_bytes,
    )
    try:  # (acp_migrate/__main__.py turns Ctrl-C and SIGTERM into KeyboardInterrupt, and sets the exit code)
        result = run_probe(options, codes=codes, max_findings=args.max_findings)
    except KeyboardInterrupt:  # the agent's process group was killed on the way out
        print("acp-migrate probe: interrupted", file=sys.stderr)
        return 130

    from acp_migrate.probe.report import render, render_errors

    if args.record:
        write_record(args.record, result)
    text = render(result, args.output_format)
    if output is not None:
        with output:
            output.write(text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    sys.stderr.write(render_errors(result))
    return 0 if args.exit_zero and result.exit_code == 1 else result.exit_code


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
