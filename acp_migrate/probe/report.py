"""The probe's reports: `check`'s formats (text, json, github, sarif) and the wire itself
(timeline, mermaid).

There is no source file: a finding is located by the step it happened in, the
session id and the index of the frame (counted from 0 over both directions, as the
timeline shows them). The shapes follow `check`'s: GitHub's escaping and the SARIF log
come from `acp_migrate/report/`, which reads plain results, never the engine.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from acp_migrate.probe.checks import ALL_CHECKS, WireFinding
from acp_migrate.probe.wire import (
    FROM_AGENT,
    TO_AGENT,
    Frame,
    Transcript,
    command_names,
)
from acp_migrate.report.github import escape_data, escape_property
from acp_migrate.report.sarif import artifact, sarif_document

if TYPE_CHECKING:  # the driver imports asyncio: `probe -h` need not
    from acp_migrate.probe.driver import ProbeRun

FORMATS = ("text", "json", "github", "sarif", "timeline", "mermaid")
FINDING_KEYS = ("code", "name", "message", "step", "session_id", "frame")
RULE_NAMES = {check.code: check.name for check in ALL_CHECKS}


@dataclass
class ProbeResult:
    run: ProbeRun
    transcript: Transcript
    findings: list[WireFinding]
    codes: list[str]  # the rules that ran

    @property
    def exit_code(self) -> int:
        if not self.run.driven:
            return 2
        return 1 if self.findings else 0


def location(f: WireFinding) -> str:
    where = f"{f.step} frame {f.frame}" if f.frame is not None else f.step
    return f"{where} (session {f.session_id})" if f.session_id else where


def render(result: ProbeResult, output_format: str) -> str:
    return {
        "text": render_text,
        "json": render_json,
        "github": render_github,
        "sarif": render_sarif,
        "timeline": render_timeline,
        "mermaid": render_mermaid,
    }[output_format](result)


def render_errors(result: ProbeResult) -> str:
    """For stderr: why the agent could not be driven, with its stderr's last lines."""
    run = result.run
    if run.driven:
        return ""
    lines = [f"error: could not drive the agent ({' '.join(run.command)}): {run.error}"]
    if run.stderr_tail:
        lines.append("the agent's stderr ended with:")
        lines.extend("  " + line for line in run.stderr_tail.splitlines())
    else:
        lines.append("the agent wrote nothing on stderr")
    return "\n".join(lines) + "\n"


# -- check's formats -------------------------------------------------------------------


def render_text(result: ProbeResult) -> str:
    lines = [f"{location(f)}: {f.code} {f.message}" for f in result.findings]
    lines.extend(f"note: {note}" for note in result.run.notes)
    for step in result.transcript.steps:
        if step.failed and step.response is not None:
            lines.append(f"note: {step.method} failed: {step.error_text}")
    steps = ", ".join(dict.fromkeys(step.method for step in result.transcript.steps)) or "none"
    count = len(result.findings)
    if not result.run.driven:
        lines.append(f"The agent could not be driven; {count} finding{'' if count == 1 else 's'} before it stopped.")
    elif count:
        rules = len({f.code for f in result.findings})
        lines.append(
            f"Found {count} finding{'' if count == 1 else 's'} ({rules} rule{'' if rules == 1 else 's'}; steps: {steps})."
        )
    else:
        lines.append(f"No findings: {len(result.codes)} wire rules passed (steps: {steps}).")
    return "".join(line + "\n" for line in lines)


def finding_dict(f: WireFinding) -> dict[str, Any]:
    return {
        "code": f.code,
        "name": RULE_NAMES.get(f.code, ""),
        "message": f.message,
        "step": f.step,
        "session_id": f.session_id,
        "frame": f.frame,
    }


def render_json(result: ProbeResult) -> str:
    """A JSON array of findings, as `check`'s (errors go to stderr, exit 2)."""
    return json.dumps([finding_dict(f) for f in result.findings], indent=2) + "\n"


def render_github(result: ProbeResult) -> str:
    lines = [
        f"::error title={escape_property(f'{f.code} {location(f)}')}::{escape_data(f.message)}" for f in result.findings
    ]
    if not result.run.driven:
        lines.append(
            f"::error title=acp-migrate probe::{escape_data('could not drive the agent: ' + result.run.error)}"
        )
    return "".join(line + "\n" for line in lines)


def _artifact(command: Sequence[str]) -> dict[str, Any]:
    # The agent's own file when the command names one (`python agent.py`), else its program.
    for argument in command[1:]:
        if os.path.isfile(argument):
            return artifact(argument)
    return {"uri": quote(command[0] if command else "agent")}


def _descriptor(check) -> dict[str, Any]:
    examples = [
        f"Example {n} ({'reported' if e.flagged else 'not reported'}):\n\n```\n{e.frames}```"
        for n, e in enumerate(check.examples, start=1)
    ]
    return {
        "id": check.code,
        "name": check.name,
        "shortDescription": {"text": check.summary},
        "fullDescription": {"text": check.documentation},
        "help": {
            "text": check.documentation,
            "markdown": "\n\n".join([check.documentation, *examples]),
        },
        "defaultConfiguration": {"level": "error"},
    }


def sarif_log(result: ProbeResult, *, cwd: str | None = None) -> dict[str, Any]:
    index = {check.code: i for i, check in enumerate(ALL_CHECKS)}
    artifact = _artifact(result.run.command)
    results = []
    for f in result.findings:
        logical = {
            "name": f"frame {f.frame}",
            "fullyQualifiedName": location(f),
            "kind": "member",
        }
        results.append(
            {
                "ruleId": f.code,
                "ruleIndex": index[f.code],
                "level": "error",
                "message": {"text": f"{location(f)}: {f.message}"},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": artifact,
                            "region": {"startLine": 1},
                        },
                        "logicalLocations": [logical],
                    }
                ],
                "properties": {
                    "step": f.step,
                    "sessionId": f.session_id,
                    "frame": f.frame,
                },
            }
        )
    notifications = []
    if not result.run.driven:
        text = f"could not drive the agent: {result.run.error}"
        if result.run.stderr_tail:
            text += "\nstderr:\n" + result.run.stderr_tail
        notifications.append({"level": "error", "message": {"text": text}})
    invocation = {
        "executionSuccessful": result.run.driven,
        "commandLine": " ".join(result.run.command),
        "toolExecutionNotifications": notifications,
    }
    descriptors = [_descriptor(check) for check in ALL_CHECKS]
    return sarif_document("acp-migrate probe", descriptors, results, invocation, cwd=cwd)


def render_sarif(result: ProbeResult) -> str:
    return json.dumps(sarif_log(result), indent=2) + "\n"


# -- the wire --------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    frame: Frame
    since_request: int  # milliseconds since the request of the step it belongs to
    label: str
    codes: tuple[str, ...]


def _label(transcript: Transcript, frame: Frame, requests: dict[tuple[str, str], Frame]) -> str:
    if frame.message is None:
        shown = frame.raw if len(frame.raw) <= 60 else frame.raw[:57] + "..."
        return f"malformed: {shown!r}"
    message = frame.message
    if frame.is_request or frame.is_notification:
        label = frame.method
        update = frame.params.get("update")
        if isinstance(update, dict) and isinstance(update.get("sessionUpdate"), str):
            label += f" {update['sessionUpdate']}"
            if update["sessionUpdate"] == "available_commands_update":
                label += " " + _commands(update.get("availableCommands", "missing"))
        return label + (f" (id {json.dumps(message['id'])})" if frame.is_request else "")
    if frame.is_response:
        asker = TO_AGENT if frame.direction == FROM_AGENT else FROM_AGENT
        request = requests.get((asker, json.dumps(message["id"])))
        method = request.method if request else "?"
        kind = "error" if "error" in message else "result"
        label = f"{kind} {method} (id {json.dumps(message['id'])})"
        result = message.get("result")
        if isinstance(result, dict):
            if isinstance(result.get("sessionId"), str):
                label += f" sessionId {result['sessionId']}"
            if "availableCommands" in result:
                label += " " + _commands(result["availableCommands"])
        error = message.get("error")
        if isinstance(error, dict):
            label += f": {error.get('message')}"
        return label
    return "unrecognised message"


def _commands(value: Any) -> str:
    if value is None:
        return "commands null"
    if not isinstance(value, list):
        return f"commands {json.dumps(value)[:40]}"
    return "[" + ", ".join(command_names(value)) + "]"


def groups(result: ProbeResult) -> list[tuple[str, list[Row]]]:
    """The frames by session (the connection's own first), each in order."""
    transcript = result.transcript
    marks: dict[int, list[str]] = {}
    for f in result.findings:
        if f.frame is not None:
            marks.setdefault(f.frame, []).append(f.code)
    requests = {
        (frame.direction, json.dumps(frame.message["id"])): frame for frame in transcript.frames if frame.is_request
    }
    by_group: dict[str, list[Row]] = {"connection": []}
    titles = {"connection": "connection"}
    for frame in transcript.frames:
        session_id = transcript.session_of(frame)
        if session_id is None and frame.is_response:
            # A reply to the agent's own request belongs with that request.
            asker = requests.get((FROM_AGENT, json.dumps(frame.message["id"])))
            session_id = transcript.session_of(asker) if asker is not None else None
        key = session_id or "connection"
        if key not in by_group:
            by_group[key] = []
            step = transcript.step_of(frame)
            titles[key] = f"session {session_id}" + (f" ({step.method})" if step else "")
        step = transcript.step_of(frame)
        since = round((frame.at - step.request.at) * 1000) if step else round(frame.at * 1000)
        by_group[key].append(
            Row(
                frame,
                since,
                _label(transcript, frame, requests),
                tuple(marks.get(frame.index, ())),
            )
        )
    return [(titles[key], rows) for key, rows in by_group.items() if rows]


def render_timeline(result: ProbeResult) -> str:
    lines = [f"agent: {' '.join(result.run.command)}"]
    for title, rows in groups(result):
        lines.append("")
        lines.append(title)
        for row in rows:
            arrow = "client → agent" if row.frame.direction == TO_AGENT else "agent → client"
            mark = "".join(f"  ✗ {code} {RULE_NAMES.get(code, '')}" for code in row.codes)
            lines.append(f"  #{row.frame.index:<4} {row.since_request:>+7} ms  {arrow}  {row.label}{mark}")
    if not result.run.driven:
        lines.append("")
        lines.append(f"stopped: {result.run.error}")
    return "\n".join(lines) + "\n"


def _mermaid_text(text: str) -> str:
    # `;` ends a statement and `#` starts an entity in Mermaid's sequence syntax.
    return text.replace(";", ",").replace("#", "no. ").replace("\n", " ")


def render_mermaid(result: ProbeResult) -> str:
    command = _mermaid_text(" ".join(result.run.command))
    lines = [
        "sequenceDiagram",
        "    participant C as Client (acp-migrate probe)",
        f"    participant A as Agent ({command})",
    ]
    for title, rows in groups(result):
        lines.append(f"    Note over C,A: {_mermaid_text(title)}")
        for row in rows:
            arrow = "C->>A" if row.frame.direction == TO_AGENT else "A-->>C"
            lines.append(f"    {arrow}: {row.frame.index} {_mermaid_text(row.label)} (+{row.since_request} ms)")
            for code in row.codes:
                lines.append(f"    Note over C,A: ✗ {code} {RULE_NAMES.get(code, '')}")
    if not result.run.driven:
        lines.append(f"    Note over C,A: stopped: {_mermaid_text(result.run.error)}")
    return "\n".join(lines) + "\n"
