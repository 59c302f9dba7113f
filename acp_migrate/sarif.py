"""The SARIF 2.1.0 log both `check --output-format sarif` and `probe --output-format
sarif` write (GitHub code scanning, IDE viewers): the log around one run, a file's
location, and a rule's descriptor (from its documentation and examples).

Locations are relative to the current directory through the `%SRCROOT%` base;
columns count Unicode code points.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from acp_migrate.version import __version__

if TYPE_CHECKING:
    from acp_migrate.rulebook import RuleInfo

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
        verdict = "reported" if example.flagged else "not reported"
        text.append(f"Example {number} ({verdict}):\n{example.before}")
        markdown.append(f"Example {number} ({verdict}):\n\n```{example.language}\n{example.before}```")
        if example.after is not None:
            text.append(f"After `acp-migrate fix`:\n{example.after}")
            markdown.append(f"After `acp-migrate fix`:\n\n```{example.language}\n{example.after}```")
    return {"text": "\n\n".join(text), "markdown": "\n\n".join(markdown)}


def rule_descriptor(rule: RuleInfo, level: str = "error") -> dict[str, Any]:
    """A rule as the log's driver lists it; `level`: what it reports by default."""
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.documentation.strip()},
        "help": _help(rule),
        "defaultConfiguration": {"level": level},
        "properties": {"fixable": rule.fixable},
    }


def sarif_document(
    tool: str,
    descriptors: list[dict[str, Any]],
    results: list[dict[str, Any]],
    invocation: dict[str, Any],
    *,
    cwd: str | None,
) -> dict[str, Any]:
    """The log around one run's rule descriptors, results and invocation."""
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
