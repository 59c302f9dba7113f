"""`check` parses less: top-level functions and classes that cannot matter lose their bodies.

A file passes the byte prefilter for one legacy token, often in a few lines of a big
module (a test file with a helper at the end). Reporting needs no edits, so LibCST
need not parse the rest: each top-level `def` or `class` whose source holds no
prefilter token keeps its header lines (decorators, signature, bases: the names and
hierarchy rules resolve against) and its body becomes one `...` line, unless it
imports a name the kept code uses (rules resolve names through every import of the
file). The body's other lines are dropped, not blanked: LibCST makes a node of every
blank line, and the traversal and `cst/positions.py` would pay for each. Kept lines
stay byte for byte, so columns do not change; `Hollowed.original_line` maps a line of
the hollowed source back to the original's.

Only `check` does this; `fix` and `diff` parse the whole file (their removals of
orphaned imports count mentions everywhere) but their traversal skips the same
definitions (`irrelevant_definitions`). tests/test_hollow.py checks that findings and
fixes are the same either way.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import NamedTuple

from acp_migrate.engine.prefilter import may_contain_legacy

_LEADING_SPACE = re.compile(rb"[ \t\f]*")
# Imports anywhere count: rules resolve names through every import of the file.
_IMPORT = re.compile(rb"\bimport\b")
_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def irrelevant_definitions(source: bytes, tree: ast.Module) -> list[ast.stmt]:
    """The top-level definitions of `tree` that cannot matter to any rule (see above)."""
    return _irrelevant(source.splitlines(keepends=True), tree)


def _irrelevant(lines: list[bytes], tree: ast.Module) -> list[ast.stmt]:
    candidates: list[tuple[ast.stmt, bytes]] = []
    kept: list[bytes] = []  # the source of every top-level statement that stays whole
    for statement in tree.body:
        segment = b"".join(lines[_first_line(statement) - 1 : statement.end_lineno or statement.lineno])
        if isinstance(statement, _DEFINITIONS) and _hollowable(statement, lines) and not may_contain_legacy(segment):
            candidates.append((statement, segment))
        elif statement is not _docstring(tree):  # prose: its words use no name
            kept.append(segment)
    # An import inside a definition binds its name for the whole file, as rules resolve
    # names: keep the definition when a kept statement uses a name it imports.
    used = {*_WORD.findall(b"".join(kept)), b"*"}
    return [
        statement
        for statement, segment in candidates
        if not (_IMPORT.search(segment) and _imported_names(statement) & used)
    ]


class Hollowed(NamedTuple):
    """The hollowed source, and where each of its lines comes from."""

    source: bytes
    # origin[i]: the original (1-based) line of line i + 1; one more entry for the line
    # after the last (where a module ends when its source ends with a line break).
    origin: list[int]

    def original_line(self, line: int) -> int:
        """The original line of `line` of the hollowed source (1-based)."""
        if 1 <= line <= len(self.origin):
            return self.origin[line - 1]
        return line + self.origin[-1] - len(self.origin) if line > 0 else line


def hollow_out(source: bytes, tree: ast.Module) -> Hollowed | None:
    """`source` with the bodies of the top-level definitions that cannot matter replaced
    (see the module docstring), or None when there is none to replace."""
    lines = source.splitlines(keepends=True)
    irrelevant = _irrelevant(lines, tree)
    if not irrelevant:
        return None
    kept: list[bytes] = []
    origin: list[int] = []
    copied = 0  # lines[:copied] are done
    for statement in irrelevant:  # in source order
        start, end = _first_line(statement.body[0]) - 1, statement.end_lineno or statement.lineno  # type: ignore[attr-defined]
        kept += lines[copied:start]
        origin += range(copied + 1, start + 1)
        indent = _LEADING_SPACE.match(lines[start]).group()
        # The last line's ending: a source without a final line break keeps none.
        kept.append(indent + b"..." + _line_ending(lines[end - 1]))
        origin.append(start + 1)
        copied = end
    kept += lines[copied:]
    origin += range(copied + 1, len(lines) + 2)
    return Hollowed(b"".join(kept), origin)


def _hollowable(statement: ast.stmt, lines: list[bytes]) -> bool:
    first = statement.body[0]  # type: ignore[attr-defined]
    start = _first_line(first)
    if start <= statement.lineno or (statement.end_lineno or 0) > len(lines):
        return False  # a one-line definition: nothing to gain
    # The body's first line must start with its first statement, to put `...` there.
    # (A decorator sits at its definition's indentation, so this holds for both.)
    return len(_LEADING_SPACE.match(lines[start - 1]).group()) == first.col_offset


def _docstring(tree: ast.Module) -> ast.stmt | None:
    first = tree.body[0] if tree.body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return first
    return None


def _first_line(statement: ast.stmt) -> int:
    """The line a statement starts on, its decorators included (`lineno` is the `def` line)."""
    decorators = getattr(statement, "decorator_list", ())
    return min([statement.lineno, *(decorator.lineno for decorator in decorators)])


def _imported_names(statement: ast.stmt) -> set[bytes]:
    names: set[bytes] = set()
    for node in _statements(statement):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                name = alias.asname or alias.name.split(".")[0]
                # A non-ASCII name may be spelled otherwise in a legacy encoding: count it used.
                names.add(name.encode() if name.isascii() else b"*")
    return names


def _statements(statement: ast.AST) -> Iterator[ast.AST]:
    """`statement` and every statement inside it; not expressions, which hold no import
    (ast.walk would visit every node of a long body)."""
    pending = [statement]
    while pending:
        node = pending.pop()
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            pending.extend(getattr(node, field, ()))


def _line_ending(line: bytes) -> bytes:
    if line.endswith(b"\r\n"):
        return b"\r\n"
    if line.endswith((b"\n", b"\r")):
        return line[-1:]
    return b""
