"""The screen: between the byte prefilter and LibCST, CPython's own tree of a Python
file says whether a rule could report on it at all.

A trigger token in a docstring, a comment or a longer identifier (`has_slash_commands`)
passes the byte prefilter but is no legacy site. Each rule declares the words a
file it reports on holds as a construct (`Rule.screen_words`): an identifier (a name,
attribute, keyword argument, parameter, definition, import, global) or a `str`
constant equal to one. The screen walks CPython's tree (C-parsed, milliseconds) and
clears a file where no such construct is, so LibCST is neither imported nor run.

Exact in one direction only: it may pass a file the rules find clean, never clear one
they would report on (tests/analysis/test_screen.py holds this over every golden
input and every file of the repository). It passes what it cannot judge: a rule that
declares no words (ACP007's TODO comment, ACP009's vendored header: CPython's tree
has no comments), and a file CPython cannot parse (the analysis gives the error).
"""

from __future__ import annotations

from acp_migrate.rules import PYTHON_RULES


def may_report(source: bytes) -> bool:
    """False when no Python rule whose triggers `source` holds can report on it."""
    global _last
    if _last is not None and _last[0] is source:  # the runner screened it, then analyses it
        return _last[1]
    words: set[str] = set()
    for rule in PYTHON_RULES:
        if rule.is_candidate(source):
            if rule.screen_words is None:
                return True
            words |= rule.screen_words
    passed = bool(words) and _holds_word(source, words)
    _last = (source, passed)  # (held: the object cannot be freed and its id reused)
    return passed


_last: tuple[bytes, bool] | None = None


def _holds_word(source: bytes, words: set[str]) -> bool:
    import ast
    import warnings
    from bisect import bisect_left

    try:
        with warnings.catch_warnings():  # `"\d"` and the like: not ours to report
            warnings.simplefilter("ignore")
            tree = compile(source, "<screen>", "exec", dont_inherit=True, flags=ast.PyCF_ONLY_AST)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True  # the analysis judges, and gives the error
    # Only statements on the lines that spell a word can hold it: a word is ASCII, and a
    # string equal to one written another way needs a backslash (`"slash\x5fcommands"`,
    # a continued line). bytes.splitlines breaks lines where CPython counts them.
    spelled = [word.encode() for word in words]
    lines = [
        number
        for number, line in enumerate(source.splitlines(), 1)
        if b"\\" in line or any(word in line for word in spelled)
    ]
    # Every `str` field of every node is an identifier or a constant's value (`Name.id`,
    # `Attribute.attr`, `keyword.arg`, `arg.arg`, `alias.name`, `Constant.value`, ...),
    # and lists of them (`Global.names`, `MatchClass.kwd_attrs`): read generically, no
    # place an identifier can stand is missed. Iterative: a deep tree cannot overflow.
    stack: list = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.stmt):
            # (a definition's decorators stand above its first line)
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
            index = bisect_left(lines, first)
            if index == len(lines) or lines[index] > node.end_lineno:
                continue
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, str):
                if value in words:
                    return True
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, str):
                        if item in words:
                            return True
                    elif isinstance(item, ast.AST):
                        stack.append(item)
            elif isinstance(value, ast.AST):
                stack.append(value)
    return False


def needs_libcst(source: bytes, path: str) -> bool:
    """Whether the analysis of `source` may parse it with LibCST: a Python file that the
    byte prefilter and the screen pass (a vendored shim's copy too, which it reads
    without). The runner decides where a file's work runs on it, the project decision
    which files it reads; no result depends on it."""
    from acp_migrate.engine.analysis.prefilter import may_contain_legacy

    return path.lower().endswith((".py", ".pyi")) and may_contain_legacy(source) and may_report(source)
