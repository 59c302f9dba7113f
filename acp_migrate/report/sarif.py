"""`check --output-format sarif`: a SARIF 2.1.0 log (GitHub code scanning, IDE viewers).

One run; the driver lists every rule with its metadata (id, name, short description
from the summary, full description and help from the rule's documentation and
examples), results point at them by index. Locations are relative to the current
directory through the `%SRCROOT%` base; columns count Unicode code points, as ours do.
Files that could not be analysed are tool execution notifications, and make the
invocation unsuccessful.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from acp_migrate.results import RunResult
from acp_migrate.version import __version__

if TYPE_CHECKING:
    from acp_migrate.api import RuleInfo

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
TOOL_URI = "https://pypi.org/project/acp-migrate/"
SRCROOT = "%SRCROOT%"


def artifact(path: str) -> dict[str, Any]:
    if os.path.isabs(path):
        return {"uri": Path(path).as_uri()}
    # The name's bytes, percent-encoded: one that is not UTF-8 (surrogateescape) too.
    return {"uri": quote(path.replace(os.sep, "/").encode("utf-8", "surrogateescape")), "uriBaseId": SRCROOT}


def _help(rule: RuleInfo) -> dict[str, str]:
    text = [rule.documentation.strip()]
    markdown = [rule.documentation.strip()]
    for number, example in enumerate(rule.examples, start=1):
        language = {".md": "markdown", ".markdown": "markdown", ".rst": "rst"}.get(example.suffix, "python")
        verdict = "reported" if example.flagged else "not reported"
        text.append(f"Example {number} ({verdict}):\n{example.before}")
        markdown.append(f"Example {number} ({verdict}):\n\n```{language}\n{example.before}```")
        if example.after is not None:
            text.append(f"After `acp-migrate fix`:\n{example.after}")
            markdown.append(f"After `acp-migrate fix`:\n\n```{language}\n{example.after}```")
    return {"text": "\n\n".join(text), "markdown": "\n\n".join(markdown)}


def _descriptor(rule: RuleInfo) -> dict[str, Any]:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.documentation.strip()},
        "help": _help(rule),
        "defaultConfiguration": {"level": "error"},
        "properties": {"fixable": rule.fixable},
    }


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
        [_descriptor(rule) for rule in rules],
        results,
        invocation,
        cwd=cwd,
    )


def sarif_document(
    tool: str,
    descriptors: list[dict[str, Any]],
    results: list[dict[str, Any]],
    invocation: dict[str, Any],
    *,
    cwd: str | None,
) -> dict[str, Any]:
    """The log around one run's rule descriptors, results and invocation (also the probe's)."""
    root = Path(cwd if cwd is not None else os.getcwd()).absolute().as_uri().rstrip("/") + "/"
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": tool,
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": TOOL_URI,
                        "rules": descriptors,
                    }
                },
                "invocations": [invocation],
                "originalUriBaseIds": {SRCROOT: {"uri": root}},
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


def render_sarif(result: RunResult, rules: Sequence[RuleInfo], *, cwd: str | None = None) -> str:
    return json.dumps(sarif_log(result, rules, cwd=cwd), indent=2) + "\n"
