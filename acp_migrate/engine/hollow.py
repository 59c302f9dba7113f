"""`check` parses less: top-level functions and classes that cannot matter lose their bodies.

A file passes the byte prefilter for one legacy token, often in a few lines of a big
module (a test file with a helper at the end). Reporting needs no edits, so LibCST
need not parse the rest: each top-level `def` or `class` whose source holds no
prefilter token keeps its header lines (decorators, signature, bases: the names and
hierarchy rules resolve against) and its body becomes one `...` line followed by
blank lines, unless it imports a name the kept code uses (rules resolve names through
every import of the file). Every kept line stays where it was, byte for byte, so
positions do not change.

Only `check` does this; `fix` and `diff` parse the whole file (their removals of
orphaned imports count mentions everywhere) but their traversal skips the same
definitions (`irrelevant_definitions`). tests/test_hollow.py checks that findings and
fixes are the same either way.
"""

from __future__ import annotations

import ast
import re

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
        else:
            kept.append(segment)
    # An import inside a definition binds its name for the whole file, as rules resolve
    # names: keep the definition when a kept statement uses a name it imports.
    used = {*_WORD.findall(b"".join(kept)), b"*"}
    return [
        statement
        for statement, segment in candidates
        if not (_IMPORT.search(segment) and _imported_names(statement) & used)
    ]


def hollow_out(source: bytes, tree: ast.Module) -> bytes | None:
    """`source` with the bodies of the top-level definitions that cannot matter replaced
    (see the module docstring), or None when there is none to replace."""
    lines = source.splitlines(keepends=True)
    irrelevant = _irrelevant(lines, tree)
    if not irrelevant:
        return None
    for statement in irrelevant:
        start, end = _first_line(statement.body[0]) - 1, statement.end_lineno or statement.lineno  # type: ignore[attr-defined]
        indent = _LEADING_SPACE.match(lines[start]).group()
        lines[start] = indent + b"..." + _line_ending(lines[start])
        for index in range(start + 1, end):
            lines[index] = _line_ending(lines[index])
    return b"".join(lines)


def _hollowable(statement: ast.stmt, lines: list[bytes]) -> bool:
    first = statement.body[0]  # type: ignore[attr-defined]
    start = _first_line(first)
    if start <= statement.lineno or (statement.end_lineno or 0) > len(lines):
        return False  # a one-line definition: nothing to gain
    # The body's first line must start with its first statement, to put `...` there.
    # (A decorator sits at its definition's indentation, so this holds for both.)
    return len(_LEADING_SPACE.match(lines[start - 1]).group()) == first.col_offset


def _first_line(statement: ast.stmt) -> int:
    """The line a statement starts on, its decorators included (`lineno` is the `def` line)."""
    decorators = getattr(statement, "decorator_list", ())
    return min([statement.lineno, *(decorator.lineno for decorator in decorators)])


def _imported_names(statement: ast.stmt) -> set[bytes]:
    names: set[bytes] = set()
    for node in ast.walk(statement):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                name = alias.asname or alias.name.split(".")[0]
                # A non-ASCII name may be spelled otherwise in a legacy encoding: count it used.
                names.add(name.encode() if name.isascii() else b"*")
    return names


def _line_ending(line: bytes) -> bytes:
    if line.endswith(b"\r\n"):
        return b"\r\n"
    if line.endswith((b"\n", b"\r")):
        return line[-1:]
    return b""
