"""`check --statistics`: how many findings per rule, most frequent first."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from acp_migrate.results import RunResult


def count_by_code(result: RunResult) -> list[tuple[str, int, bool]]:
    """(code, count, any fixable), most frequent first, then by code."""
    counts = Counter(f.code for f in result.findings)
    fixable = {f.code for f in result.findings if f.fixable}
    return sorted(((code, n, code in fixable) for code, n in counts.items()), key=lambda row: (-row[1], row[0]))


def render_statistics(result: RunResult, names: Mapping[str, str]) -> str:
    """`COUNT  CODE  [*] name` lines (`[*]`: fixable by `fix`), like ruff's."""
    rows = count_by_code(result)
    width = max((len(str(n)) for _, n, _ in rows), default=1)
    return "".join(
        f"{n:>{width}}\t{code}\t{'[*]' if fixable else '[ ]'} {names.get(code, '')}".rstrip() + "\n"
        for code, n, fixable in rows
    )


def render_statistics_json(result: RunResult, names: Mapping[str, str]) -> str:
    data: list[dict[str, Any]] = [
        {"code": code, "name": names.get(code, ""), "count": n, "fixable": fixable}
        for code, n, fixable in count_by_code(result)
    ]
    return json.dumps(data, indent=2) + "\n"
