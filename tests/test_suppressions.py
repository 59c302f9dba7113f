"""Suppression comments and rule selection: what survives, and that dropped findings'
edits are not applied (`analyze_source` with real rules)."""

from __future__ import annotations

from pathlib import Path

import pytest

from acp_migrate.engine.analysis.codemod import analyze_source
from acp_migrate.engine.analysis.suppressions import UNUSED_SUPPRESSION, find_suppressions
from acp_migrate.rules import ALL_RULES
from acp_migrate.settings import RuleSettings

TWO_CALLS = (
    "from acp.schema import AgentCapabilities\n"
    "\n"
    "a = AgentCapabilities(load_session=True, slash_commands=[])\n"
    "b = AgentCapabilities(load_session=True, slash_commands=[]){comment}\n"
)

FEEDING_LOCAL = (
    "from acp.schema import InitializeResponse\n"
    "\n"
    "\n"
    "def build(agent):\n"
    "    cmds = agent.get_commands()\n"
    "    return InitializeResponse.create(protocol_version=1, slash_commands=cmds){comment}\n"
)


def analyse(source: str, **kwargs):
    return analyze_source(source.encode(), path="agent.py", **kwargs)


def codes(findings) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in findings]


@pytest.mark.parametrize(
    "comment", ["  # acp-migrate: ignore", "  # acp-migrate: ignore[ACP001]", "  # note  #acp-migrate:ignore[acp001]"]
)
def test_a_suppressed_line_is_neither_reported_nor_fixed(comment: str) -> None:
    source = TWO_CALLS.format(comment=comment)

    analysis = analyse(source)

    assert codes(analysis.findings) == [(3, "ACP001")]
    assert analysis.fixed_source is not None
    fixed = analysis.fixed_source.decode()
    assert "a = AgentCapabilities(load_session=True)\n" in fixed
    assert f"b = AgentCapabilities(load_session=True, slash_commands=[]){comment}\n" in fixed


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_suppressions_are_found_whatever_the_line_endings(newline: str) -> None:
    source = TWO_CALLS.format(comment="  # acp-migrate: ignore[ACP001]").replace("\n", newline)

    analysis = analyse(source, report_unused_suppressions=True)

    assert codes(analysis.findings) == [(3, "ACP001")]


def test_a_suppression_of_another_code_does_not_silence() -> None:
    analysis = analyse(TWO_CALLS.format(comment="  # acp-migrate: ignore[ACP004]"))

    assert codes(analysis.findings) == [(3, "ACP001"), (4, "ACP001")]
    assert b"slash_commands" not in analysis.fixed_source


def test_the_edits_of_a_suppressed_finding_go_with_it() -> None:
    # The finding's edits go with it: here its TODO (the list cannot move); a moved list's
    # are the keyword, the local that fed it and the rewiring.
    source = FEEDING_LOCAL.format(comment="  # acp-migrate: ignore[ACP001]")

    analysis = analyse(source)

    assert analysis.findings == [] and analysis.remaining == []
    assert analysis.fixed_source is None


def test_without_the_suppression_the_same_code_gets_its_todo() -> None:
    # Not an agent's initialize: the list cannot move, so the code stays with a TODO.
    analysis = analyse(FEEDING_LOCAL.format(comment=""))

    assert codes(analysis.findings) == [(6, "ACP001")]
    assert codes(analysis.remaining) == [(6, "ACP005")]
    fixed = analysis.fixed_source.decode()
    assert "    cmds = agent.get_commands()\n    # acp-migrate: TODO: advertise `cmds` per session" in fixed
    assert "slash_commands=cmds)\n" in fixed


def test_suppressing_only_the_followup_silences_it_and_the_code_stays() -> None:
    analysis = analyse(FEEDING_LOCAL.format(comment="  # acp-migrate: ignore[ACP005]"))

    assert codes(analysis.findings) == [(6, "ACP001")]
    # Nothing is written (no TODO either), and fix still says the keyword is left.
    assert analysis.fixed_source is None
    assert codes(analysis.remaining) == [(6, "ACP001")]


SCHEMA = (
    "from pydantic import BaseModel\n"
    "\n"
    "class AgentCapabilities(BaseModel):\n"
    "    load_session: bool = False\n"
    "\n"
    "    @classmethod\n"
    "    def create(cls, *, load_session=False, slash_commands=None):{comment}\n"
    '        """Build capabilities.\n'
    "\n"
    "        Args:\n"
    "            load_session: Whether sessions can be loaded.\n"
    "            slash_commands: Commands to advertise.\n"
    '        """\n'
    "        return cls(load_session=load_session)\n"
)


def test_a_parameters_docstring_entry_goes_with_its_fix() -> None:
    # ACP003's fix of the parameter removes its docstring entry too.
    fixed = analyse(SCHEMA.format(comment="")).fixed_source.decode()
    kept = analyse(SCHEMA.format(comment="  # acp-migrate: ignore"))

    assert "slash_commands" not in fixed
    assert kept.findings == []
    assert kept.fixed_source is None  # the parameter and its docstring entry both stay


def test_a_report_owns_exactly_the_edits_of_its_fix_block() -> None:
    import libcst as cst

    from acp_migrate.rules.base import Report
    from acp_migrate.rules.context import FileContext

    module = cst.parse_module("a = 1\nb = 2\n")
    context = FileContext(module)
    first, second = module.body
    with pytest.raises(RuntimeError, match="outside"):
        context.remove(first)  # no report would own it
    with context.fix(Report(first, "ACP001", "fixed", fixable=True)):
        context.remove(first)
    context.report(Report(second, "ACP004", "reported", fixable=False))
    with pytest.raises(ValueError), context.fix(Report(second, "ACP001", "gave up", fixable=True)):
        context.remove(second)
        raise ValueError  # (a rewire that cannot be done): neither the report nor its edit
    assert [(r.message, r.edits.removed) for r in context.reports] == [("fixed", {first}), ("reported", set())]


def test_ignored_and_unselected_rules_neither_report_nor_fix() -> None:
    source = TWO_CALLS.format(comment="")

    ignored = analyse(source, settings=RuleSettings(ignore=("ACP001",)))
    unselected = analyse(source, settings=RuleSettings(select=("ACP004",)))
    selected = analyse(source, settings=RuleSettings(select=("ACP001",)))

    for analysis in (ignored, unselected):
        assert analysis.findings == [] and analysis.fixed_source is None
    assert codes(selected.findings) == [(3, "ACP001"), (4, "ACP001")]


def test_ignoring_the_followup_code_leaves_the_code_and_reports_what_stays() -> None:
    analysis = analyse(FEEDING_LOCAL.format(comment=""), settings=RuleSettings(ignore=("ACP005",)))

    assert codes(analysis.findings) == [(6, "ACP001")]
    assert codes(analysis.remaining) == [(6, "ACP001")]
    assert analysis.fixed_source is None


def test_markdown_findings_are_suppressed_by_a_comment_on_their_line() -> None:
    doc = '```jsonc\n{"agentCapabilities": {\n  "slashCommands": []  // acp-migrate: ignore\n}}\n```\n'
    plain = doc.replace("  // acp-migrate: ignore", "")

    assert [f.code for f in analyze_source(plain.encode(), path="README.md").findings] == ["ACP006"]
    assert analyze_source(doc.encode(), path="README.md").findings == []
    assert analyze_source(plain.encode(), path="README.md", settings=RuleSettings(ignore=("ACP006",))).findings == []


# --- unused suppressions (ACP100) ------------------------------------------------------------


def unused(source: str, **kwargs) -> list[tuple[int, str]]:
    analysis = analyse(source, report_unused_suppressions=True, **kwargs)
    return [(f.line, f.message) for f in analysis.findings if f.code == UNUSED_SUPPRESSION.code]


def test_unused_suppressions_are_reported_only_when_asked() -> None:
    source = "x = 1  # acp-migrate: ignore\n"

    assert analyse(source).findings == []
    assert unused(source) == [(1, "unused suppression: nothing to silence on this line")]


def test_a_used_suppression_is_not_reported() -> None:
    assert unused(TWO_CALLS.format(comment="  # acp-migrate: ignore[ACP001]")) == []
    assert unused(TWO_CALLS.format(comment="  # acp-migrate: ignore")) == []


def test_unused_and_unknown_codes_are_named() -> None:
    [(line, message)] = unused(TWO_CALLS.format(comment="  # acp-migrate: ignore[ACP001,ACP004,XYZ9]"))

    assert line == 4
    assert "ACP004" in message and "XYZ9" in message and "ACP001" not in message


def test_codes_of_disabled_rules_are_not_unused() -> None:
    source = TWO_CALLS.format(comment="  # acp-migrate: ignore[ACP001]")

    assert unused(source, settings=RuleSettings(ignore=("ACP001",))) == []


def test_unused_suppression_position() -> None:
    analysis = analyse("value = 1  # acp-migrate: ignore[ACP004]\n", report_unused_suppressions=True)

    [finding] = analysis.findings
    assert (finding.line, finding.column, finding.end_column) == (1, 12, 41)
    assert analysis.remaining == [finding]


@pytest.mark.parametrize("index", range(len(UNUSED_SUPPRESSION.examples)))
def test_acp100_examples_do_what_its_docs_say(index: int) -> None:
    example = UNUSED_SUPPRESSION.examples[index]

    analysis = analyze_source(example.before.encode(), path="example.py", report_unused_suppressions=True)

    assert (UNUSED_SUPPRESSION.code in {f.code for f in analysis.findings}) == example.flagged
    if example.after is None:
        assert analysis.fixed_source is None


def test_acp100_is_not_a_rule_code_already() -> None:
    assert UNUSED_SUPPRESSION.code not in {rule.code for rule in ALL_RULES}


# --- parsing ------------------------------------------------------------------------------


def test_directives_in_strings_do_not_count() -> None:
    text = 's = "# acp-migrate: ignore"\nt = 1  # acp-migrate: ignore[ ACP001 , acp004 ]\n'

    [suppression] = find_suppressions(text, python=True)

    assert (suppression.line, suppression.codes) == (2, ("ACP001", "ACP004"))


def test_todo_marks_are_not_suppressions() -> None:
    assert find_suppressions("# acp-migrate: TODO: advertise per session\n", python=True) == []
    assert find_suppressions("# acp-migrate: ignored\n", python=True) == []


REWIRED_TWICE = (
    Path(__file__).resolve().parent.parent
    / "golden"
    / "rewire-suppressed-occurrence-still-moves"
    / "input"
    / "agent.py"
).read_text()


def test_a_suppressed_report_does_not_rewire_for_the_others() -> None:
    # The suppressed first `slash_commands=` must not mark the class rewired (the rewire
    # would go with its dropped edits): the second one's list moves into new_session.
    analysis = analyse(REWIRED_TWICE, report_unused_suppressions=True)

    fixed = analysis.fixed_source.decode()
    assert "commands=self.commands()" in fixed and fixed.count("slash_commands=") == 1
    assert codes(analysis.findings) == [(18, "ACP001")] and analysis.remaining == []


def test_a_disabled_rule_neither_removes_nor_rewires() -> None:
    analysis = analyse(
        REWIRED_TWICE.replace("  # acp-migrate: ignore[ACP001]", ""), settings=RuleSettings(ignore=("ACP001",))
    )

    assert analysis.findings == [] and analysis.fixed_source is None
