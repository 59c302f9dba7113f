"""The probe's reports: `check`'s formats (text, json, github, sarif) and the wire itself
(timeline, mermaid).

There is no source file: a finding is located by the step it happened in, the
session id and the index of the frame (counted from 0 over both directions, as the
timeline shows them). The shapes follow `check`'s: the escaping and the SARIF log come
from the modules both use (`acp_migrate/escape.py`, `acp_migrate/sarif.py`). What the
agent wrote is shown escaped in every format: no control character, and no line of
text that GitHub Actions would run as a workflow command (`::`). Every
format carries the findings (the verdict), the notes (the probe's own: steps skipped,
refused or failed; and the rules' notes), and each cap reached (`limits.py`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from acp_migrate.escape import escape_data, escape_property, shown_line
from acp_migrate.probe.checks import ERROR, NOTE, SPEC, WIRE_RULES, WireFinding
from acp_migrate.probe.limits import LABEL_CHARS, MAX_REPORT_CHARS
from acp_migrate.probe.wire import (
    FROM_AGENT,
    SETUP_METHODS,
    TO_AGENT,
    Frame,
    Transcript,
    advertised,
    command_names,
)
from acp_migrate.rulebook import RuleInfo
from acp_migrate.sarif import artifact, rule_descriptor, sarif_document

if TYPE_CHECKING:  # the driver imports asyncio: `probe -h` need not
    from acp_migrate.probe.driver import ProbeRun

FORMATS = ("text", "json", "github", "sarif", "timeline", "mermaid")
FINDING_KEYS = ("code", "name", "basis", "spec", "message", "step", "session_id", "frame")
RULE_NAMES = {rule.code: rule.name for rule in WIRE_RULES}
RULE_SPECS = {rule.code: rule.spec for rule in WIRE_RULES}


KINDS = {"new": "session/new", "load": "session/load", "resume": "session/resume", "fork": "session/fork"}


@dataclass(frozen=True)
class Coverage:
    """One kind of setup: how many were answered, with how many command lists, or why none."""

    kind: str  # new, load, resume or fork
    exercised: int
    lists: int
    why: str | None  # why it was not exercised


@dataclass
class ProbeResult:
    run: ProbeRun
    transcript: Transcript
    findings: list[WireFinding]  # the errors: the verdict (the first `max_findings`)
    codes: list[str]  # the rules that ran
    notes: list[WireFinding] = field(default_factory=list)  # not counted in the verdict
    total_findings: int | None = None  # before the cap (None: all are in `findings`)
    total_notes: int | None = None
    coverage: list[Coverage] = field(default_factory=list)
    unmet: list[str] = field(default_factory=list)  # why the run proves too little to pass

    @property
    def exit_code(self) -> int:
        if not self.run.driven:
            return 2
        return 1 if self.findings or self.unmet else 0

    @property
    def finding_count(self) -> int:
        return len(self.findings) if self.total_findings is None else self.total_findings

    @property
    def caps(self) -> list[str]:
        """What a cap left out, or stopped: each stated in every report."""
        stated = [note.message for note in self.notes if note.code is None and note.message.startswith("cap reached")]
        for kind, shown, total in (
            ("findings", len(self.findings), self.total_findings),
            ("notes", len(self.notes), self.total_notes),
        ):
            if total is not None and total > shown:
                stated.append(f"cap reached: the first {shown} of {total} {kind} are shown (--max-findings)")
        return stated


def make_result(
    run: ProbeRun,
    transcript: Transcript,
    reported: list[WireFinding],
    codes: list[str],
    max_findings: int,
    require: Sequence[str] = (),
) -> ProbeResult:
    """Errors and notes apart, the probe's own notes (steps skipped or refused) first, each
    capped; one defect repeated over lists or setups once, with its count; the coverage,
    and what it leaves unproven (`require`: the kinds that must be exercised)."""
    errors = _repeats_merged([f for f in reported if f.level == ERROR])
    notes = _repeats_merged(run_notes(run, transcript) + [f for f in reported if f.level == NOTE])
    covered = coverage(transcript)
    return ProbeResult(
        run,
        transcript,
        errors[:max_findings],
        codes,
        notes[:max_findings],
        len(errors) if len(errors) > max_findings else None,
        len(notes) if len(notes) > max_findings else None,
        covered,
        unmet(transcript, covered, require) if run.driven else [],
    )


def coverage(transcript: Transcript) -> list[Coverage]:
    """What each kind of setup exercised, or why it was not: refused (and when no prompt
    came first, maybe for want of a transcript), not advertised, or not reached."""
    prompted = any(step.method == "session/prompt" for step in transcript.steps)
    init = transcript.initialize
    offered = advertised(init.response.result if init and init.response else None)
    covered = []
    for kind, method in KINDS.items():
        steps = [step for step in transcript.setup_steps if step.method == method]
        answered = [step for step in steps if not step.failed]
        why = None
        if steps and not answered:
            why = f"refused ({steps[0].error_text})"
            if not prompted and kind != "new":
                why += ": it may need a session with a transcript, try --prompt"
        elif not steps and not offered[method]:
            why = "not advertised (--all tries it)"
        elif not steps:
            why = "not reached: the run stopped before it"
        lists = sum(1 for step in answered for listed in transcript.lists_of(step))
        covered.append(Coverage(kind, len(answered), lists, why))
    return covered


def unmet(transcript: Transcript, covered: list[Coverage], require: Sequence[str]) -> list[str]:
    """Why a clean run still does not pass: no command list to judge, or a kind that
    `--require` names not exercised."""
    reasons = []
    if not transcript.command_lists:
        reasons.append("nothing tested: the agent sent no command list (the command rules had nothing to judge)")
    for entry in covered:
        if entry.kind in require and not entry.exercised:
            reasons.append(f"--require {entry.kind}: {KINDS[entry.kind]} not exercised: {entry.why}")
    return reasons


def _repeats_merged(findings: list[WireFinding]) -> list[WireFinding]:
    """One defect repeated (the same rule and message but for the session id: each list
    of a --repeat, each setup re-sending the list, each fork) once, with the count, the
    steps and the sessions."""
    groups: dict[tuple[Any, ...], list[WireFinding]] = {}
    for f in findings:
        message = f.message.replace(f.session_id, "…") if f.session_id else f.message
        groups.setdefault((f.code, f.basis, message), []).append(f)
    merged = []
    for repeats in groups.values():
        first = repeats[0]
        if len(repeats) > 1:
            message = f"{first.message} (the same {len(repeats)} times{_where(repeats)})"
            frames = tuple(f.frame for f in repeats[1:] if f.frame is not None)
            first = replace(first, message=message, repeated_at=frames)
        merged.append(first)
    return merged


def _where(repeats: list[WireFinding]) -> str:
    """`: STEPS; sessions IDS`, each part only when it says something: several steps, any session."""
    steps = list(dict.fromkeys(f.step for f in repeats))
    sessions = list(dict.fromkeys(f.session_id for f in repeats if f.session_id))
    parts = [", ".join(steps)] if len(steps) > 1 else []
    if sessions:
        parts.append("sessions " + ", ".join(sessions))
    return ": " + "; ".join(parts) if parts else ""


def run_notes(run: ProbeRun, transcript: Transcript) -> list[WireFinding]:
    notes = [WireFinding(None, text, None, "start", None, NOTE) for text in run.notes]
    for step in transcript.steps:
        if not step.failed or step.response is None:
            continue
        session = step.session_id or transcript.session_of(step.request)
        if step.method in SETUP_METHODS:
            what = f"{step.method} refused by the agent (about the session, not its commands)"
        else:
            what = f"{step.method} failed"
        notes.append(WireFinding(None, f"{what}: {step.error_text}", step.response.index, step.method, session, NOTE))
    return notes


def location(f: WireFinding) -> str:
    where = f"{f.step} frame {f.frame}" if f.frame is not None else f.step
    return f"{where} (session {f.session_id})" if f.session_id else where


def render(result: ProbeResult, output_format: str) -> str:
    text = {
        "text": render_text,
        "json": render_json,
        "github": render_github,
        "sarif": render_sarif,
        "timeline": render_timeline,
        "mermaid": render_mermaid,
    }[output_format](result)
    if output_format in ("json", "sarif") or len(text) <= MAX_REPORT_CHARS:
        return text  # JSON stays whole: the caps on frames, findings and messages bound it
    cut = text.rfind("\n", 0, MAX_REPORT_CHARS) + 1
    return text[:cut] + f"cap reached: the report was cut at {cut} of {len(text)} characters\n"


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
    return _text(lines)


def _text(lines: list[str]) -> str:
    """Lines of a text format: what the agent wrote in them cannot break a line, drive
    the terminal or start a workflow command (`acp_migrate/escape.py`)."""
    return "".join(shown_line(line) + "\n" for line in lines)


# -- check's formats -------------------------------------------------------------------


def _note_line(note: WireFinding) -> str:
    code = f"{note.code} " if note.code else ""
    return f"note: {location(note)}: {code}{note.message}" if note.frame is not None else f"note: {code}{note.message}"


def render_text(result: ProbeResult) -> str:
    lines = [f"{location(f)}: {f.code} [{f.basis}] {f.message}" for f in result.findings]
    lines.extend(_note_line(note) for note in result.notes)
    lines.extend(cap for cap in result.caps if not any(cap == note.message for note in result.notes))
    if result.run.driven:
        lines.append(coverage_line(result.coverage))
    lines.extend(f"not a pass: {reason}" for reason in result.unmet)
    count = result.finding_count
    if not result.run.driven:
        lines.append(f"The agent could not be driven; {count} finding{'' if count == 1 else 's'} before it stopped.")
    elif count:
        rules = len({f.code for f in result.findings})
        lines.append(f"Found {count} finding{'' if count == 1 else 's'} ({rules} rule{'' if rules == 1 else 's'}).")
    elif result.unmet:
        lines.append(f"No findings, but no pass: {'; '.join(result.unmet)}.")
    else:
        lines.append(f"No findings: {len(result.codes)} wire rules passed over what was exercised.")
    return _text(lines)


def coverage_line(covered: list[Coverage]) -> str:
    done = [
        f"{KINDS[c.kind]} ×{c.exercised} ({c.lists} list{'' if c.lists == 1 else 's'})" for c in covered if c.exercised
    ]
    missed = [f"{KINDS[c.kind]}: {c.why}" for c in covered if not c.exercised]
    line = f"Exercised: {', '.join(done) or 'nothing'}"
    return line + (f". Not exercised: {'; '.join(missed)}" if missed else "") + "."


def finding_dict(f: WireFinding) -> dict[str, Any]:
    return {
        "code": f.code,
        "name": RULE_NAMES.get(f.code, "") if f.code else "",
        "basis": f.basis,
        "spec": RULE_SPECS.get(f.code, "") if f.basis == SPEC else "",
        "message": f.message,
        "step": f.step,
        "session_id": f.session_id,
        "frame": f.frame,
    }


def render_json(result: ProbeResult) -> str:
    """The findings (the verdict), the notes (steps skipped or refused, a rule's notes),
    the caps reached, the exit code and why the agent could not be driven."""
    document = {
        "exit_code": result.exit_code,
        "error": result.run.error,
        "findings": [finding_dict(f) for f in result.findings],
        "notes": [finding_dict(f) for f in result.notes],
        "caps": result.caps,
        "coverage": {c.kind: {"exercised": c.exercised, "lists": c.lists, "why": c.why} for c in result.coverage},
        "unmet": result.unmet,
    }
    return json.dumps(document, indent=2) + "\n"


def render_github(result: ProbeResult) -> str:
    lines = [
        f"::error title={escape_property(f'{f.code} {location(f)}')}::{escape_data(f.message)}" for f in result.findings
    ]
    for note in result.notes:
        title = f"{note.code} {location(note)}" if note.code else "acp-migrate probe"
        lines.append(f"::notice title={escape_property(title)}::{escape_data(note.message)}")
    lines.extend(f"::warning title=acp-migrate probe::{escape_data(cap)}" for cap in result.caps)
    lines.extend(f"::error title=acp-migrate probe::{escape_data('not a pass: ' + reason)}" for reason in result.unmet)
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


def sarif_log(result: ProbeResult, *, cwd: str | None = None) -> dict[str, Any]:
    index = {rule.code: i for i, rule in enumerate(WIRE_RULES)}
    artifact = _artifact(result.run.command)
    results = []
    for f in [*result.findings, *(note for note in result.notes if note.code is not None)]:
        logical = {
            "name": f"frame {f.frame}",
            "fullyQualifiedName": location(f),
            "kind": "member",
        }
        results.append(
            {
                "ruleId": f.code,
                "ruleIndex": index[f.code],
                "level": f.level,
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
                    "basis": f.basis,
                    "step": f.step,
                    "sessionId": f.session_id,
                    "frame": f.frame,
                },
            }
        )
    notifications = [{"level": "note", "message": {"text": note.message}} for note in result.notes if note.code is None]
    notifications.extend({"level": "warning", "message": {"text": cap}} for cap in result.caps)
    notifications.extend({"level": "error", "message": {"text": f"not a pass: {reason}"}} for reason in result.unmet)
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
    descriptors = [rule_descriptor(RuleInfo.of(rule), rule.level) for rule in WIRE_RULES]
    return sarif_document("acp-migrate probe", descriptors, results, invocation, cwd=cwd)


def render_sarif(result: ProbeResult) -> str:
    return json.dumps(sarif_log(result), indent=2) + "\n"


# -- the wire --------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    frame: Frame
    since_request: int  # milliseconds since the request of the step it belongs to
    label: str
    codes: tuple[str, ...]  # the rules it broke
    noted: tuple[str, ...] = ()  # the rules that note it


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
    marks: dict[int, dict[str, None]] = {}
    noted: dict[int, dict[str, None]] = {}
    for f in result.findings:  # every frame that broke a rule, merged findings' repeats too
        for frame in (f.frame, *f.repeated_at) if f.frame is not None else ():
            marks.setdefault(frame, {})[f.code] = None
    for f in result.notes:
        for frame in (f.frame, *f.repeated_at) if f.frame is not None and f.code is not None else ():
            noted.setdefault(frame, {})[f.code] = None
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
        label = _label(transcript, frame, requests)
        if len(label) > LABEL_CHARS:
            label = label[: LABEL_CHARS - 3] + "..."
        by_group[key].append(
            Row(frame, since, label, tuple(marks.get(frame.index, ())), tuple(noted.get(frame.index, ())))
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
            mark += "".join(f"  · note {code} {RULE_NAMES.get(code, '')}" for code in row.noted)
            lines.append(f"  #{row.frame.index:<4} {row.since_request:>+7} ms  {arrow}  {row.label}{mark}")
    lines.extend(result.caps)
    if not result.run.driven:
        lines.append("")
        lines.append(f"stopped: {result.run.error}")
    return _text(lines)


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
            marks = [f"✗ {code} {RULE_NAMES.get(code, '')}" for code in row.codes]
            marks += [f"note {code} {RULE_NAMES.get(code, '')}" for code in row.noted]
            if marks:  # one note a frame, whatever it broke
                lines.append(f"    Note over C,A: {', '.join(marks)}")
    lines.extend(f"    Note over C,A: {_mermaid_text(cap)}" for cap in result.caps)
    if not result.run.driven:
        lines.append(f"    Note over C,A: stopped: {_mermaid_text(result.run.error)}")
    return _text(lines)
