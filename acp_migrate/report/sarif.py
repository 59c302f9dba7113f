"""`check --output-format sarif`: a SARIF 2.1.0 log (GitHub code scanning, IDE viewers).

One run; the driver lists every rule with its metadata (`acp_migrate/sarif.py`: id,
name, short description from the summary, full description and help from the rule's
documentation and examples), results point at them by index; columns count Unicode
code points, as ours do. Files that could not be analysed are tool execution
notifications, and make the invocation unsuccessful.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from acp_migrate.results import RunResult
from acp_migrate.sarif import artifact, rule_descriptor, sarif_document

if TYPE_CHECKING:
    from acp_migrate.rulebook import RuleInfo


def sarif_log(result: RunResult, rules: Sequence[RuleInfo], *, cwd: str | None = None) -> dict[str, Any]:
    rules = list(rules)
    index = {rule.code: i for i, rule in enumerate(rules)}
    results = []
    for f in result.findings:
        entry: dict[str, Any] = {
            "ruleId": f.code,
            "level": "error",
            "message": {"text": f.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": artifact(f.path),
                        "region": {
                            "startLine": f.line,
                            "startColumn": f.column,
                            "endLine": f.end_line,
                            "endColumn": f.end_column,
                        },
                    }
                }
            ],
            "properties": {"fixable": f.fixable},
        }
        if f.code in index:
            entry["ruleIndex"] = index[f.code]
        results.append(entry)
    notifications = [
        {
            "level": "error",
            "message": {"text": f"could not be analysed: {error.reason}"},
            "locations": [{"physicalLocation": {"artifactLocation": artifact(error.path)}}],
        }
        for error in result.errors
    ]
    invocation = {
        "executionSuccessful": not notifications,
        "toolExecutionNotifications": notifications,
    }
    return sarif_document(
        "acp-migrate",
        [rule_descriptor(rule) for rule in rules],
        results,
        invocation,
        cwd=cwd,
    )


def render_sarif(result: RunResult, rules: Sequence[RuleInfo], *, cwd: str | None = None) -> str:
    return json.dumps(sarif_log(result, rules, cwd=cwd), indent=2) + "\n"
