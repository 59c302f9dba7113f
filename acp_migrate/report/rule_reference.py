"""docs/rules.md, the rule reference, rendered from the rules themselves: the index table
(README.md holds it too, without links) and each rule's documentation and examples as
`acp-migrate rules CODE` prints them. Regenerate both after a rule's docstring, summary
or examples change (tests/test_documentation.py fails until then), from the
repository's root:

    python -m acp_migrate.report.rule_reference
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from acp_migrate.report.rules import render_rule_doc

if TYPE_CHECKING:
    from acp_migrate.api import RuleExample, RuleInfo

REFERENCE = "docs/rules.md"
README = "README.md"
REGENERATE = "python -m acp_migrate.report.rule_reference"
INDEX_HEADER = "| code | name | fix | what |\n"
# The README's table stays short as rules come: each code links to its section here.
README_INDEX_HEADER = "| code | name | fix |\n"
# A longer example (ACP009's: the whole shim) is shown by `acp-migrate rules CODE` only.
MAX_EXAMPLE_LINES = 60


def anchor(rule: RuleInfo) -> str:
    """The heading's anchor as GitHub writes it: `#acp001-initialize-slash-commands`."""
    return f"#{rule.code.lower()}-{rule.name}"


def render_rule_index(rules: Sequence[RuleInfo]) -> str:
    """The Markdown table of every rule, each code linking to its section below."""
    lines = [INDEX_HEADER.rstrip("\n"), "|---|---|---|---|"]
    for rule in rules:
        code = f"[{rule.code}]({anchor(rule)})"
        summary = rule.summary.replace("|", "\\|")
        lines.append(f"| {code} | {rule.name} | {'yes' if rule.fixable else ''} | {summary} |")
    return "".join(line + "\n" for line in lines)


def render_rule_reference(rules: Sequence[RuleInfo]) -> str:
    introduction = (
        "# Rules\n\n"
        "Generated from each rule's own documentation and examples (what `acp-migrate rules CODE`\n"
        f"prints; the tests run every example): `{REGENERATE}`.\n"
        "ACP001-ACP011 and ACP200 and up are the codemod's (`check`, `diff`, `fix`), ACP100 is `check`'s\n"
        "`--report-unused-suppressions`, ACP101 and up are the wire rules of `acp-migrate probe`.\n"
    )
    sections = [introduction, render_rule_index(rules)]
    for rule in rules:
        doc = render_rule_doc(replace(rule, examples=[_shortened(rule.code, e) for e in rule.examples]))
        # One level down: each rule is a section of this page.
        title, _, body = doc.partition("\n")
        sections.append("#" + title + "\n" + body.replace("\n## Examples\n", "\n### Examples\n", 1))
    return "\n".join(sections)


def _shortened(code: str, example: RuleExample) -> RuleExample:
    def short(text: str | None) -> str | None:
        if text is None or text.count("\n") <= MAX_EXAMPLE_LINES:
            return text
        return f"... (a long example: `acp-migrate rules {code}` shows it)\n"

    return replace(example, before=short(example.before), after=short(example.after), resolved=short(example.resolved))


def render_readme_index(rules: Sequence[RuleInfo]) -> str:
    lines = [README_INDEX_HEADER.rstrip("\n"), "|---|---|---|"]
    for rule in rules:
        lines.append(f"| [{rule.code}]({REFERENCE}{anchor(rule)}) | {rule.name} | {'yes' if rule.fixable else ''} |")
    return "".join(line + "\n" for line in lines)


def with_index(readme: str, rules: Sequence[RuleInfo]) -> str:
    """`readme` with its rules table (from its header to the blank line) rendered afresh."""
    start = readme.index(README_INDEX_HEADER)
    end = readme.index("\n\n", start) + 1
    return readme[:start] + render_readme_index(rules) + readme[end:]


def main() -> None:
    from acp_migrate.api import list_rules

    rules = list_rules()
    Path(REFERENCE).write_text(render_rule_reference(rules), encoding="utf-8")
    readme = Path(README)
    readme.write_text(with_index(readme.read_text(encoding="utf-8"), rules), encoding="utf-8")


if __name__ == "__main__":
    main()
