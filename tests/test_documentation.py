"""The documentation agrees with the code. docs/rules.md and README.md's rules table are
rendered from the rules themselves: a rule whose docstring, summary or examples changed
fails here until both are regenerated (`python -m acp_migrate.report.rule_reference`).
The README stays one page, and its test command is the one CI runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from acp_migrate.api import list_rules
from acp_migrate.report.rule_reference import REFERENCE, REGENERATE, render_rule_reference, with_index

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
# A file of this repository (`docs/runtime.md`, `rules/shared/rewire.py`): a pip user has none.
SOURCE_PATH = re.compile(r"[\w.]+/[\w/.]*\.(?:py|md)\b")


def test_the_rule_reference_is_current() -> None:
    assert (REPO / REFERENCE).read_text(encoding="utf-8") == render_rule_reference(list_rules()), (
        f"{REFERENCE} is out of date: {REGENERATE}"
    )


def test_the_readme_holds_the_rule_table_of_the_reference() -> None:
    assert with_index(README, list_rules()) == README, f"README.md's rules table is out of date: {REGENERATE}"


def test_a_changed_docstring_changes_the_reference() -> None:
    rules = list_rules()
    rules[0].documentation += "\n\nOne more sentence."

    assert render_rule_reference(rules) != (REPO / REFERENCE).read_text(encoding="utf-8")


@pytest.mark.parametrize("rule", list_rules(), ids=lambda rule: rule.code)
def test_a_rules_documentation_names_no_file_of_this_repository(rule) -> None:
    assert SOURCE_PATH.findall(rule.documentation) == []


def test_the_readme_is_one_page() -> None:
    assert len(README.encode()) <= 12_000


def test_the_readmes_test_command_is_what_ci_runs() -> None:
    [command] = [line for line in README.splitlines() if line.endswith("&& .venv/bin/pytest")]
    assert command in (REPO / ".ci" / "run").read_text().splitlines()
