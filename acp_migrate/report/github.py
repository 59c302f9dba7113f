"""`check --output-format github`: GitHub Actions workflow commands, one annotation per finding.

`::error file=PATH,line=L,col=C,endLine=L,endColumn=C,title=CODE::MESSAGE`, escaped as the
runner expects (`%`, CR, LF everywhere; also `:` and `,` in properties), and the other
control characters and undecodable bytes of a name as the text output shows them (an
escape sequence would drive the log's reader). Files that could not be analysed become
annotations too (and still go to stderr).
"""

from __future__ import annotations

from acp_migrate.report.text import shown
from acp_migrate.results import RunResult


def escape_data(text: str) -> str:
    return shown(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


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
