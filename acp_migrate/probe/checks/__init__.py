"""The wire rules: one module a rule, found by name (`acp1NN_<name>.py`).

A rule module has a docstring (its documentation, first line `CODE name`), `CODE`,
`NAME`, `SUMMARY`, `EXAMPLES` (`(transcript, reported)` pairs, the transcript in the
compact form of `wire.parse_example`), `check(transcript)`, which yields
`WireFinding`s, and optionally `LEVEL = NOTE` (a rule that only notes). A finding is
an error (the verdict) or a note (`level=NOTE`: worth knowing, not wrong, such as a
schema-valid `input: null`); one per rule per command list, not one per item, for a
person reads the report. Importing this package imports the rule modules and the
standard library only, so `acp-migrate rules` can list them cheaply.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from acp_migrate.probe.limits import MESSAGE_CHARS
from acp_migrate.probe.wire import Frame, Transcript

__all__ = ["ALL_CHECKS", "ERROR", "NOTE", "Check", "Example", "WireFinding", "enabled_codes", "finding", "run_checks"]


@dataclass(frozen=True, slots=True)
class Example:
    frames: str  # the transcript, `-> ` / `<- ` a line
    flagged: bool = True  # the rule reports it (a finding, or a note)


ERROR = "error"
NOTE = "note"  # reported, never counted in the verdict


@dataclass(frozen=True, slots=True)
class WireFinding:
    code: str | None  # None: a note of the probe's own (a step skipped or refused, a cap reached)
    message: str
    frame: int | None  # the index of the frame that broke the rule
    step: str  # the method of the step it happened in (a command list's: the setup it belongs to)
    session_id: str | None
    level: str = ERROR


def finding(
    transcript: Transcript,
    code: str,
    message: str,
    frame: Frame | None,
    session_id: str | None = None,
    level: str = ERROR,
):
    step = transcript.step_for(frame) if frame is not None else None
    if session_id is None and frame is not None:
        session_id = transcript.session_of(frame)
    if len(message) > MESSAGE_CHARS:
        message = message[: MESSAGE_CHARS - 3] + "..."
    return WireFinding(
        code, message, frame.index if frame else None, step.method if step else "start", session_id, level
    )


@dataclass(frozen=True, slots=True)
class Check:
    code: str
    name: str
    summary: str
    documentation: str
    examples: tuple[Example, ...]
    run: Callable[[Transcript], Iterable[WireFinding]]
    level: str = ERROR  # what it reports by default (NOTE: only notes)


def _discover() -> list[Check]:
    checks = []
    for module_info in pkgutil.iter_modules(__path__):
        if not re.fullmatch(r"acp1\d\d_\w+", module_info.name):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        checks.append(
            Check(
                code=module.CODE,
                name=module.NAME,
                summary=module.SUMMARY,
                documentation=inspect.cleandoc(module.__doc__ or ""),
                examples=tuple(Example(*e) if isinstance(e, tuple) else e for e in module.EXAMPLES),
                run=module.check,
                level=getattr(module, "LEVEL", ERROR),
            )
        )
    return sorted(checks, key=lambda check: check.code)


ALL_CHECKS: list[Check] = _discover()


def _specificity(selector: str, code: str) -> int:
    # As `check`: a code or prefix matches by its length, ALL least of all.
    if selector == "ALL":
        return 0
    return len(selector) if code.startswith(selector) else -1


def enabled_codes(select: Sequence[str] | None = None, ignore: Sequence[str] = ()) -> list[str]:
    """The codes `--select` / `--ignore` leave: each follows its most specific selector,
    and `ignore` wins a tie (`check`'s semantics)."""
    select = [s.upper() for s in (select or ["ALL"])]
    ignore = [s.upper() for s in ignore]
    codes = []
    for check in ALL_CHECKS:
        chosen = max((_specificity(s, check.code) for s in select), default=-1)
        dropped = max((_specificity(s, check.code) for s in ignore), default=-1)
        if chosen >= 0 and chosen > dropped:
            codes.append(check.code)
    return codes


def unknown_selectors(selectors: Sequence[str]) -> list[str]:
    return [s for s in selectors if s.upper() != "ALL" and not any(c.code.startswith(s.upper()) for c in ALL_CHECKS)]


def run_checks(transcript: Transcript, codes: Sequence[str] | None = None) -> list[WireFinding]:
    """Every finding and note of the enabled rules, in frame order."""
    findings = []
    for check in ALL_CHECKS:
        if codes is None or check.code in codes:
            findings.extend(check.run(transcript))
    return sorted(findings, key=lambda f: (f.frame if f.frame is not None else -1, f.code))
