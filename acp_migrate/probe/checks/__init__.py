"""The wire rules: one module a rule (`acp1NN_<name>.py`), each defining one `WireRule`
(`base.py`), found by `acp_migrate/rulebook.py` as the codemod's rules are.

Importing this package imports the rule modules and the standard library only, so
`acp-migrate rules` can list them cheaply.
"""

from __future__ import annotations

from collections.abc import Sequence

import acp_migrate.rulebook as rulebook
from dataclasses import replace

from acp_migrate.probe.checks.base import ERROR, NOTE, POLICY, SPEC, WireFinding, WireRule, finding
from acp_migrate.probe.wire import Transcript

__all__ = [
    "CODES",
    "ERROR",
    "NOTE",
    "POLICY",
    "SPEC",
    "WIRE_RULES",
    "WireFinding",
    "WireRule",
    "enabled_bases",
    "enabled_codes",
    "finding",
    "run_checks",
    "unknown_selectors",
]

WIRE_RULES: tuple[type[WireRule], ...] = rulebook.find_rules(__name__, __path__, WireRule)
CODES = tuple(rule.code for rule in WIRE_RULES)


BASES = (SPEC.upper(), POLICY.upper())  # the selectors of a basis: `--ignore POLICY`


def enabled_codes(select: Sequence[str] | None = None, ignore: Sequence[str] = ()) -> list[str]:
    """The wire rules' codes `--select` / `--ignore` leave (as `check`'s; a basis
    selector is `enabled_bases`')."""
    select = [s.upper() for s in select or () if s.upper() not in BASES]
    return rulebook.enabled_codes(CODES, select or None, [s.upper() for s in ignore if s.upper() not in BASES])


def enabled_bases(select: Sequence[str] | None = None, ignore: Sequence[str] = ()) -> list[str]:
    """The bases `--select SPEC` / `--ignore POLICY` leave (both, by default)."""
    chosen = [s.lower() for s in select or () if s.upper() in BASES] or [SPEC, POLICY]
    return [basis for basis in chosen if basis.upper() not in {s.upper() for s in ignore}]


def unknown_selectors(selectors: Sequence[str]) -> list[str]:
    """The selectors, as given, that select no wire rule (nor a basis)."""
    return [s for s in selectors if s.upper() not in BASES and rulebook.unknown_selectors([s.upper()], CODES)]


def run_checks(
    transcript: Transcript, codes: Sequence[str] | None = None, bases: Sequence[str] = (SPEC, POLICY)
) -> list[WireFinding]:
    """Every finding and note of the enabled rules whose basis is one of `bases`, in frame order."""
    findings = []
    for rule in WIRE_RULES:
        if codes is None or rule.code in codes:
            for found in rule.check(transcript):
                found = found if found.basis is not None else replace(found, basis=rule.basis)
                if found.basis in bases:
                    findings.append(found)
    return sorted(findings, key=lambda f: (f.frame if f.frame is not None else -1, f.code))
