"""Which reports survive: rule selection (`select`/`ignore`) and suppression comments.

`# acp-migrate: ignore` on the line of a finding silences every finding there;
`# acp-migrate: ignore[ACP001,ACP004]` only those codes. A silenced finding is neither
reported by `check` nor fixed by `fix`: the filtering happens before any edit is
applied, and the edits a silenced (or disabled) report registered are dropped with it.
In Markdown the directive may sit in any comment on the line (`<!-- acp-migrate: ignore -->`).

A suppression that silences nothing is itself reported as ACP100 when asked for
(`--report-unused-suppressions`); codes of rules that are not enabled are not counted
as unused.

Each report carries the edits that fix it (`rules/context.py`, `FileContext.fix`), so
dropping a report drops exactly its edits.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass, field

from acp_migrate.findings import Finding
from acp_migrate.rulebook import Example
from acp_migrate.rules import RULES_BY_CODE
from acp_migrate.settings import RuleSettings

_DIRECTIVE = r"acp-migrate:[ \t]*ignore\b(?:\[(?P<codes>[^\]\n]*)\])?"
_PYTHON_DIRECTIVE = re.compile(r"#[ \t]*" + _DIRECTIVE, re.IGNORECASE)
_DOCUMENT_DIRECTIVE = re.compile(_DIRECTIVE, re.IGNORECASE)
_MARKER = b"acp-migrate"


@dataclass
class EngineRule:
    """A code the engine itself reports (not a rule module): documented like one
    (`rulebook.RuleInfo.of` reads it as it reads a rule)."""

    code: str
    name: str
    summary: str
    fixable: bool
    documentation: str
    examples: tuple[Example, ...]
    example_path: str = "example.py"


UNUSED_SUPPRESSION = EngineRule(
    code="ACP100",
    name="unused-suppression",
    summary="A `# acp-migrate: ignore` comment silences nothing on its line.",
    fixable=False,
    documentation=(
        "ACP100 unused-suppression: a suppression comment that silences nothing.\n"
        "\n"
        "Reported only with `--report-unused-suppressions`. A suppression outlives the code it\n"
        "was written for: once the legacy pattern is gone, the comment only hides the next\n"
        "one. `# acp-migrate: ignore[ACP001]` names the codes it silences; codes that are\n"
        "not enabled (`select`/`ignore`) are not counted as unused, unknown codes are.\n"
        "Remove the comment, or the codes it no longer needs.\n"
    ),
    examples=(
        Example("caps = AgentCapabilities(load_session=True)  # acp-migrate: ignore\n"),
        Example(
            "from acp.schema import AgentCapabilities\n"
            "\n"
            "caps = AgentCapabilities(slash_commands=[])  # acp-migrate: ignore[ACP001]\n",
            flagged=False,
        ),
    ),
)


def known_codes() -> frozenset[str]:
    """Every code a user can select, ignore or suppress: the rules' (as they declare
    them) and the engine's own."""
    return frozenset(RULES_BY_CODE) | {UNUSED_SUPPRESSION.code}


@dataclass
class Suppression:
    line: int
    column: int  # 1-based, where the directive starts
    end_column: int
    codes: tuple[str, ...] | None  # None: every code
    used: set[str] = field(default_factory=set)
    silenced_any: bool = False


def find_suppressions(text: str, *, python: bool) -> list[Suppression]:
    """The suppression comments of one source (Python comments, or any line of a document)."""
    if "acp-migrate" not in text.lower():
        return []
    found: list[Suppression] = []
    if python:
        try:
            # newline=None: lines end at \r too, as for Python and the findings' lines.
            for token in tokenize.generate_tokens(io.StringIO(text, newline=None).readline):
                if token.type == tokenize.COMMENT:
                    _add(found, _PYTHON_DIRECTIVE, token.string, token.start[0], token.start[1])
            return found
        except (tokenize.TokenError, SyntaxError, ValueError):
            found.clear()  # fall back to lines: a `#` inside a string may then count, harmlessly
    pattern = _PYTHON_DIRECTIVE if python else _DOCUMENT_DIRECTIVE
    for number, line in enumerate(text.splitlines(), start=1):
        _add(found, pattern, line, number, 0)
    return found


def _add(found: list[Suppression], pattern: re.Pattern[str], text: str, line: int, offset: int) -> None:
    match = pattern.search(text)
    if match is None:
        return
    codes_text = match.group("codes")
    codes = tuple(dict.fromkeys(c.strip().upper() for c in codes_text.split(",") if c.strip())) if codes_text else ()
    found.append(
        Suppression(
            line=line,
            column=offset + match.start() + 1,
            end_column=offset + match.end() + 1,
            codes=codes or None,
        )
    )


class ReportFilter:
    """Decides, finding by finding, what survives; remembers which suppressions were used."""

    def __init__(self, settings: RuleSettings, suppressions: Iterable[Suppression] = ()) -> None:
        self.settings = settings
        self._by_line: dict[int, Suppression] = {}
        for suppression in suppressions:
            self._by_line.setdefault(suppression.line, suppression)

    @classmethod
    def for_source(cls, source: bytes, encoding: str, settings: RuleSettings, *, python: bool) -> ReportFilter:
        if _MARKER not in source.lower():
            return cls(settings)
        text = source.decode(encoding, "replace")
        return cls(settings, find_suppressions(text, python=python))

    def may_drop(self, code: str) -> bool:
        """Whether `keep` could drop a finding of `code`: its rule is disabled, or some
        comment of the file could silence it (no position needed)."""
        if not self.settings.enabled(code):
            return True
        return any(s.codes is None or code in s.codes for s in self._by_line.values())

    def keep(self, finding: Finding) -> bool:
        if not self.settings.enabled(finding.code):
            return False
        for line in dict.fromkeys((finding.line, finding.end_line)):
            suppression = self._by_line.get(line)
            if suppression is not None and (suppression.codes is None or finding.code in suppression.codes):
                suppression.silenced_any = True
                suppression.used.add(finding.code)
                return False
        return True

    def unused(self, path: str) -> list[Finding]:
        """ACP100 findings: suppressions (or codes of them) that silenced nothing."""
        findings = []
        known: frozenset[str] | None = None
        for suppression in self._by_line.values():
            if suppression.codes is None:
                if suppression.silenced_any:
                    continue
                message = "unused suppression: nothing to silence on this line"
            else:
                if known is None:
                    known = known_codes()
                unknown = [c for c in suppression.codes if c not in known]
                unused = [
                    c
                    for c in suppression.codes
                    if c in known and c not in suppression.used and self.settings.enabled(c)
                ]
                parts = []
                if unused:
                    parts.append(f"unused suppression of {', '.join(unused)}: nothing to silence on this line")
                if unknown:
                    parts.append(f"unknown rule code {', '.join(unknown)} in suppression")
                if not parts:
                    continue
                message = "; ".join(parts)
            findings.append(
                Finding(
                    path=path,
                    line=suppression.line,
                    column=suppression.column,
                    end_line=suppression.line,
                    end_column=suppression.end_column,
                    code=UNUSED_SUPPRESSION.code,
                    message=message,
                    fixable=False,
                )
            )
        return findings
