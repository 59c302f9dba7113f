"""Machine-readable output for `check --output-format json`: a JSON array of findings."""

from __future__ import annotations

import json

from acp_migrate.escape import undecodable_escaped
from acp_migrate.results import RunResult

FINDING_KEYS = ("path", "line", "column", "end_line", "end_column", "code", "message", "fixable")


def render_json(result: RunResult) -> str:
    """Findings in `Finding.sort_key` order; errors are not in it (they go to stderr, exit 2)."""
    # A name that is not UTF-8 would be a lone surrogate, which strict JSON parsers refuse.
    findings = [
        {key: undecodable_escaped(value) if isinstance(value := getattr(f, key), str) else value for key in FINDING_KEYS}
        for f in result.findings
    ]
    return json.dumps(findings, indent=2) + "\n"
