"""`check --output-format github`: GitHub Actions workflow commands, one annotation per finding.

`::error file=PATH,line=L,col=C,endLine=L,endColumn=C,title=CODE::MESSAGE`, escaped as the
runner expects (`%`, CR, LF everywhere; also `:` and `,` in properties; other control
characters as `\\xNN`: `acp_migrate/escape.py`). Files that could not be analysed
become annotations too (and still go to stderr).
"""

from __future__ import annotations

from acp_migrate.escape import escape_data, escape_property
from acp_migrate.results import RunResult


def _path(path: str) -> str:
    return path.replace("\\", "/")


def render_github(result: RunResult) -> str:
    lines = []
    for f in result.findings:
        properties = ",".join(
            [
                f"file={escape_property(_path(f.path))}",
                f"line={f.line}",
                f"col={f.column}",
                f"endLine={f.end_line}",
                f"endColumn={f.end_column}",
                f"title={escape_property(f.code)}",
            ]
        )
        lines.append(f"::error {properties}::{escape_data(f.message)}")
    for error in result.errors:
        message = escape_data(f"could not be analysed: {error.reason}")
        lines.append(f"::error file={escape_property(_path(error.path))},title=acp-migrate::{message}")
    return "".join(line + "\n" for line in lines)
