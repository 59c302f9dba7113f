"""Adding an import where isort (and ruff's `I001`) would put it.

The module's import block is its first run of top-level import statements (after
the docstring); it ends at the first other statement, so an import after code (a
`sys.path` change, `# noqa: E402`) is never a place for a new one. In the block,
imports are in sections: `__future__`, standard library, third party, first party
(a module found next to or above the file), local (relative); in each, `import x`
lines come before `from x import ...` ones, by module name. The new import goes into
its section in order, or starts the section, one blank line from the others.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

import libcst as cst

from acp_migrate.cst.layout import is_docstring
from acp_migrate.rules.edits import FIRST_PARTY, FUTURE, LOCAL, STANDARD_LIBRARY, THIRD_PARTY


def add_imports(
    module: cst.Module,
    imports: Sequence[tuple[str, str, int | None]],
    first_party: Callable[[str], bool] = lambda name: False,
    line_length: int | None = None,
) -> cst.Module:
    """`module` with `from <module> import <name>` added for each of `imports`
    ((module, name, section): None classifies the module; `first_party(top-level name)`
    says whether the project has it), joining a `from <module> import` the block has:
    parenthesized one name a line where it then no longer fits `line_length` (None:
    only a parenthesized one)."""
    for name_module, name, section in imports:
        module = _add_one(module, name_module, name, section, first_party, line_length)
    return module


def _add_one(
    module: cst.Module, from_module: str, name: str, section: int | None, first_party, line_length: int | None = None
) -> cst.Module:
    merged = _merged(module, from_module, name, line_length)
    if merged is not None:
        return merged
    statement = cst.parse_statement(f"from {from_module} import {name}\n")
    if section is None:
        section = classify(from_module, first_party)
    body = list(module.body)
    start = 1 if body and is_docstring(body[0]) else 0
    end = start
    while end < len(body) and _is_import(body[end]):
        end += 1
    if end == start:
        # No block at the top: after the last import before the first definition.
        anchor = None
        for index, item in enumerate(body):
            if isinstance(item, (cst.ClassDef, cst.FunctionDef)):
                break
            if _is_import(item):
                anchor = index
        if anchor is None:  # no import left (fix removed the last one): it opens the module
            return _opening(module, body, start, statement)
        body.insert(anchor + 1, statement.with_changes(leading_lines=[]))
        return module.with_changes(body=body)
    block = list(range(start, end))
    sections = {index: classify(_module_of(body[index]), first_party) for index in block}
    key = _sort_key(statement)
    mine = [index for index in block if sections[index] == section]
    if mine:
        following = next((index for index in mine if _sort_key(body[index]) > key), None)
        if following is not None:
            # It takes the place (and the comments above) of the first import it precedes.
            moved = body[following].leading_lines
            body[following] = body[following].with_changes(leading_lines=[])
            body.insert(following, statement.with_changes(leading_lines=moved))
        else:
            body.insert(mine[-1] + 1, statement.with_changes(leading_lines=[]))
        return module.with_changes(body=body)
    before = [index for index in block if sections[index] < section]
    if before:
        body.insert(before[-1] + 1, statement.with_changes(leading_lines=[cst.EmptyLine()]))
    else:  # the first section: it takes the block's leading comments
        first = body[start]
        body[start] = first.with_changes(leading_lines=[cst.EmptyLine()])
        body.insert(start, statement.with_changes(leading_lines=first.leading_lines))
    return module.with_changes(body=body)


def _opening(module: cst.Module, body: list, start: int, statement: cst.SimpleStatementLine) -> cst.Module:
    """`module` with `statement` its first import, at `start` (after the docstring): it
    takes the comments above what follows, parted from it by isort's blank lines."""
    follower = body[start] if start < len(body) else None
    comments = [line for line in follower.leading_lines if line.comment] if follower is not None else []
    if follower is not None:
        gap = 2 if isinstance(follower, (cst.ClassDef, cst.FunctionDef)) else 1
        body[start] = follower.with_changes(leading_lines=[cst.EmptyLine()] * gap)
    opening = [cst.EmptyLine()] if start else []  # a blank line after the docstring
    body.insert(start, statement.with_changes(leading_lines=opening + comments))
    return module.with_changes(body=body)


def _merged(module: cst.Module, from_module: str, name: str, line_length: int | None) -> cst.Module | None:
    """`module` with `name` added to a `from <from_module> import ...` of its import
    block, in order where its names are sorted: a parenthesized one, or one on a line
    that still fits `line_length`; None when it has no such statement."""
    body = list(module.body)
    start = 1 if body and is_docstring(body[0]) else 0
    for index in range(start, len(body)):  # the import block
        statement = body[index]
        if not _is_import(statement):
            break
        if len(statement.body) != 1:
            continue
        imported = statement.body[0]
        if (
            not isinstance(imported, cst.ImportFrom)
            or isinstance(imported.names, cst.ImportStar)
            or _module_of(statement) != from_module
        ):
            continue
        names = list(imported.names)
        if any(alias.asname is None and _dotted(alias.name) == name for alias in names):
            return module
        spelled = [_dotted(alias.name) for alias in names]
        at = (
            next((i for i, other in enumerate(spelled) if other > name), len(names))
            if spelled == sorted(spelled)
            else len(names)
        )
        if at < len(names):
            names.insert(at, cst.ImportAlias(cst.Name(name), comma=names[max(at - 1, 0)].comma))
        else:  # last: it takes the closing comma, the one before it a separator
            if len(names) > 1:
                separator = names[-2].comma
            elif imported.lpar is not None:
                separator = cst.Comma(whitespace_after=imported.lpar.whitespace_after)
            else:
                separator = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
            names[-1] = names[-1].with_changes(comma=separator)
            names.append(cst.ImportAlias(cst.Name(name), comma=imported.names[-1].comma))
        joined = statement.with_changes(body=[imported.with_changes(names=names)])
        if imported.lpar is None:
            if line_length is None:
                continue
            line = module.code_for_node(joined.with_changes(leading_lines=[])).rstrip("\r\n")
            if len(line) > line_length:  # one name a line in parentheses, as isort wraps it
                joined = statement.with_changes(body=[_parenthesized(imported, names, module.default_indent)])
        body[index] = joined
        return module.with_changes(body=body)


def _parenthesized(imported: cst.ImportFrom, names: list[cst.ImportAlias], indent: str) -> cst.ImportFrom:
    line = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(indent))
    last = cst.Comma(whitespace_after=cst.ParenthesizedWhitespace(indent=True))
    laid = [*(name.with_changes(comma=cst.Comma(whitespace_after=line)) for name in names[:-1])]
    return imported.with_changes(
        names=[*laid, names[-1].with_changes(comma=last)],
        lpar=cst.LeftParen(whitespace_after=line),
        rpar=cst.RightParen(),
    )
    return None


def classify(module: str, first_party: Callable[[str], bool] = lambda name: False) -> int:
    if module.startswith("."):
        return LOCAL
    top = module.split(".")[0]
    if top == "__future__":
        return FUTURE
    if top in sys.stdlib_module_names:
        return STANDARD_LIBRARY
    return FIRST_PARTY if first_party(top) else THIRD_PARTY


def _is_import(statement: cst.BaseStatement) -> bool:
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    if not all(isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body):
        return False
    comment = statement.trailing_whitespace.comment
    # An import that silences E402 stands after code, whatever is between: not the block.
    return comment is None or "E402" not in comment.value


def _module_of(statement: cst.SimpleStatementLine) -> str:
    small = statement.body[0]
    if isinstance(small, cst.Import):
        return _dotted(small.names[0].name)
    dots = "." * len(small.relative)
    return dots + (_dotted(small.module) if small.module is not None else "")


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def _sort_key(statement: cst.SimpleStatementLine) -> tuple[int, int, str]:
    """isort's order in a section: `import x` first, then `from` imports, furthest
    relative ones first, by module name ignoring case."""
    small = statement.body[0]
    name = _module_of(statement)
    stripped = name.lstrip(".")
    if isinstance(small, cst.Import):
        return 0, 0, stripped.lower()
    return 1, -(len(name) - len(stripped)), stripped.lower()
