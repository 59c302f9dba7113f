"""`acp-migrate rules`: the rule list, and one rule's documentation with its examples.

Everything shown comes from the rule modules (docstring, summary, examples), and the
examples are executed by the tests, so what a person reads is what the tool does.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from acp_migrate.rulebook import RuleInfo

# The list reads on an 80-column terminal: each rule's summary wraps below its code.
WIDTH = 80
SUMMARY_INDENT = " " * 8


def render_rule_table(rules: Sequence[RuleInfo]) -> str:
    name_width = max((len(rule.name) for rule in rules), default=0)
    lines = [f"{'code':<7} {'name':<{name_width}}  fix"]
    for rule in rules:
        lines.append(f"{rule.code:<7} {rule.name:<{name_width}}  {'yes' if rule.fixable else 'no'}")
        lines += textwrap.wrap(
            rule.summary, WIDTH, initial_indent=SUMMARY_INDENT, subsequent_indent=SUMMARY_INDENT, break_on_hyphens=False
        )
    return "".join(line + "\n" for line in lines)


def _rule_dict(rule: RuleInfo) -> dict[str, Any]:
    examples = [
        {"before": e.before, "after": e.after, "flagged": e.flagged, "suffix": e.suffix, "resolved": e.resolved}
        for e in rule.examples
    ]
    return {
        "code": rule.code,
        "name": rule.name,
        "summary": rule.summary,
        "fixable": rule.fixable,
        "documentation": rule.documentation,
        "examples": examples,
    }


def render_rule_table_json(rules: Sequence[RuleInfo]) -> str:
    return json.dumps([_rule_dict(rule) for rule in rules], indent=2) + "\n"


def render_rule_json(rule: RuleInfo) -> str:
    return json.dumps(_rule_dict(rule), indent=2) + "\n"


def render_rule_doc(rule: RuleInfo) -> str:
    """Markdown: the title, whether `fix` rewrites it, the docstring, then each example:
    what `fix` makes of it, and for a finding left to a person what they write instead."""
    parts = [
        f"# {rule.code} {rule.name}",
        f"Fixable: {'yes, by `acp-migrate fix`' if rule.fixable else 'no, a person has to act'}.",
        rule.documentation.strip(),
    ]
    if rule.examples:
        parts.append("## Examples")
    for number, example in enumerate(rule.examples, start=1):
        language = example.language
        fence = "~~~" if "```" in example.before + (example.after or "") + (example.resolved or "") else "```"
        if example.target_sdk is not None:
            written_for = f"written for SDK {example.written_for}" if example.written_for else "of unknown SDK release"
            parts.append(f"Example {number}: code {written_for}, target SDK {example.target_sdk}.")
        if not example.flagged:
            parts.append(f"Example {number}, not reported:")
        elif example.after is None:
            parts.append(f"Example {number}, reported (not rewritten):")
        else:
            parts.append(f"Example {number}, before:")
        parts.append(f"{fence}{language}\n{example.before}{fence}")
        if example.after is not None:
            parts.append("After `acp-migrate fix`:")
            parts.append(f"{fence}{language}\n{example.after}{fence}")
        if example.resolved is not None:
            parts.append("Resolved by a person (`fix` does not write this):")
            parts.append(f"{fence}{language}\n{example.resolved}{fence}")
    return "\n\n".join(parts) + "\n"
