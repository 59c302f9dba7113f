"""The wire rules: one module a rule (`acp1NN_<name>.py`), each defining one `WireRule`
(`base.py`), found by `acp_migrate/rulebook.py` as the codemod's rules are.

Importing this package imports the rule modules and the standard library only, so
`acp-migrate rules` can list them cheaply.
"""

from __future__ import annotations

from collections.abc import Sequence

import acp_migrate.rulebook as rulebook
from acp_migrate.probe.checks.base import ERROR, NOTE, WireFinding, WireRule, finding
from acp_migrate.probe.wire import Transcript

__all__ = [
    "CODES",
    "ERROR",
    "NOTE",
    "WIRE_RULES",
    "WireFinding",
    "WireRule",
    "enabled_codes",
    "finding",
    "run_checks",
    "unknown_selectors",
]

WIRE_RULES: tuple[type[WireRule], ...] = rulebook.find_rules(__name__, __path__, WireRule)
CODES = tuple(rule.code for rule in WIRE_RULES)


def enabled_codes(select: Sequence[str] | None = None, ignore: Sequence[str] = ()) -> list[str]:
    """The wire rules' codes `--select` / `--ignore` leave (as `check`'s)."""
    return rulebook.enabled_codes(CODES, [s.upper() for s in select or ()], [s.upper() for s in ignore])


def unknown_selectors(selectors: Sequence[str]) -> list[str]:
    """The selectors, as given, that select no wire rule."""
    return [s for s in selectors if rulebook.unknown_selectors([s.upper()], CODES)]


def run_checks(transcript: Transcript, codes: Sequence[str] | None = None) -> list[WireFinding]:
    """Every finding and note of the enabled rules, in frame order."""
    findings = []
    for rule in WIRE_RULES:
        if codes is None or rule.code in codes:
            findings.extend(rule.check(transcript))
    return sorted(findings, key=lambda f: (f.frame if f.frame is not None else -1, f.code))
