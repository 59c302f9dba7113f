"""What a wire rule is: a `WireRule` (`acp_migrate/rulebook.py`'s `RuleBase`) whose
`check(transcript)` yields `WireFinding`s, and the findings it makes.

A finding is an error (the verdict) or a note (`level=NOTE`: worth knowing, not wrong,
such as a schema-valid `input: null`); one per rule per command list, not one per
item, for a person reads the report (and the report merges one defect repeated over
lists and setups into one finding with their count).

Each rule rests on the spec (`basis = SPEC`, `spec` quoting the sentence of the ACP
spec or schema it applies) or on the probe's own policy (`basis = POLICY`: what makes
clients misbehave without the spec forbidding it); `--ignore POLICY` turns the latter
off as a group. A rule with findings of both kinds gives the finding its own `basis`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from acp_migrate.probe.limits import MESSAGE_CHARS
from acp_migrate.probe.wire import Frame, Transcript
from acp_migrate.rulebook import Example, RuleBase

__all__ = ["ERROR", "NOTE", "POLICY", "SPEC", "Example", "WireFinding", "WireRule", "finding"]

ERROR = "error"
NOTE = "note"  # reported, never counted in the verdict
SPEC = "spec"
POLICY = "policy"


@dataclass(frozen=True, slots=True)
class WireFinding:
    code: str | None  # None: a note of the probe's own (a step skipped or refused, a cap reached)
    message: str
    frame: int | None  # the index of the frame that broke the rule
    step: str  # the method of the step it happened in (a command list's: the setup it belongs to)
    session_id: str | None
    level: str = ERROR
    basis: str | None = None  # SPEC or POLICY (None: the rule's; a note of the probe's own: none)
    repeated_at: tuple[int, ...] = ()  # the frames of the same defect the report merged into this one


class WireRule(RuleBase):
    """One rule of the wire. Its examples' `before` is a transcript in the compact form of
    `wire.parse_example` (`-> ` what the client sent, `<- ` what the agent sent)."""

    example_path: ClassVar[str] = "transcript.jsonl"
    level: ClassVar[str] = ERROR  # what it reports by default (NOTE: only notes)
    basis: ClassVar[str] = POLICY
    spec: ClassVar[str] = ""  # for a SPEC rule: the sentence it rests on, quoted

    @classmethod
    def check(cls, transcript: Transcript) -> Iterable[WireFinding]:
        raise NotImplementedError


def finding(
    transcript: Transcript,
    code: str,
    message: str,
    frame: Frame | None,
    session_id: str | None = None,
    level: str = ERROR,
    basis: str | None = None,
) -> WireFinding:
    step = transcript.step_for(frame) if frame is not None else None
    if session_id is None and frame is not None:
        session_id = transcript.session_of(frame)
    if len(message) > MESSAGE_CHARS:
        message = message[: MESSAGE_CHARS - 3] + "..."
    return WireFinding(
        code, message, frame.index if frame else None, step.method if step else "start", session_id, level, basis
    )
