"""Statements the codemod writes, laid out as the project's formatter would (black and
ruff agree on these simple calls): on one line when it fits the project's line length,
else the arguments on one indented line, else one argument per line with a trailing
comma. Not a rule: the rewire asks it.
"""

from __future__ import annotations

import libcst as cst

from acp_migrate.cst.layout import one_a_line
from acp_migrate.settings import ProjectStyle


def call_statement(
    target: str, func: str, args: list[str], *, depth: int, module: cst.Module, style: ProjectStyle
) -> cst.BaseStatement:
    """`<target><func>(<args>)` as a statement to insert `depth` blocks deep in `module`
    (`target`: `"x = "`, `"x: T = "` or `""`); an argument's own continuation lines move in
    with it."""
    unit = module.default_indent
    width = depth * len(unit.expandtabs(4))
    head = f"{target}{func}("
    joined = ", ".join(args)
    if "\n" not in joined and width + len(head) + len(joined) + 1 <= style.line_length:
        return _parsed(f"{head}{joined})", module)
    if "\n" not in joined and width + len(unit.expandtabs(4)) + len(joined) <= style.line_length:
        return _parsed(f"{head}\n{unit}{joined}\n)", module)
    if len(args) == 1:  # one argument spanning lines (a multi-line list): hugged
        return _parsed(f"{head}\n{_indented(args[0], unit)}\n)", module)
    lines = "".join(f"{_indented(arg, unit)},\n" for arg in args)
    return _parsed(f"{head}\n{lines})", module)


def source_of(module: cst.Module, node: cst.CSTNode) -> str:
    """`node`'s code as written (strings and comments untouched), its continuation lines
    relative to its first: where it came from does not shift where it goes."""
    code = module.code_for_node(node)
    if _multiline_string(node):
        raise ValueError("a string spanning lines cannot move: its lines are its value")
    lines = code.split("\n")
    rest = [line for line in lines[1:] if line.strip()]
    if not rest:
        return "\n".join(lines)
    # A bracket formatted as black does closes at the indentation of the line it opens on.
    base = min(len(line) - len(line.lstrip()) for line in rest)
    return "\n".join([lines[0], *(line[base:] if line.strip() else line for line in lines[1:])])


def _indented(code: str, unit: str) -> str:
    return "\n".join(unit + line if line.strip() else line for line in code.split("\n"))


def _parsed(code: str, module: cst.Module) -> cst.BaseStatement:
    # The module's own newline: inserted lines take the file's line endings.
    return cst.parse_statement(code + "\n", config=module.config_for_parsing)


def _multiline_string(node: cst.CSTNode) -> bool:
    from acp_migrate.cst.walk import walk

    found = False

    class Strings(cst.CSTVisitor):
        def visit_SimpleString(self, string: cst.SimpleString) -> None:
            nonlocal found
            found = found or "\n" in string.value

        def visit_FormattedStringText(self, text: cst.FormattedStringText) -> None:
            nonlocal found
            found = found or "\n" in text.value

    walk(node, Strings())
    return found


def laid_out_call(call: cst.Call, func: cst.BaseExpression, args: list[cst.Arg]) -> cst.Call:
    """`func(*args)` laid out as `call` was: on one line, or one argument a line."""
    if not isinstance(call.whitespace_before_args, cst.ParenthesizedWhitespace):
        bare = [arg.with_changes(whitespace_after_arg=cst.SimpleWhitespace("")) for arg in args]
        between = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        return call.with_changes(func=func, args=[*(a.with_changes(comma=between) for a in bare[:-1]), bare[-1]])
    last = call.args[-1]
    closing = last.comma.whitespace_after if isinstance(last.comma, cst.Comma) else last.whitespace_after_arg
    return one_a_line(call.with_changes(func=func), args, call.whitespace_before_args, closing)
