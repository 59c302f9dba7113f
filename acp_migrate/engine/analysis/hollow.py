"""`check` parses less: top-level functions and classes that cannot matter lose their bodies.

A file passes the byte prefilter for one legacy token, often in a few lines of a big
module (a test file with a helper at the end). Reporting needs no edits, so LibCST
need not parse the rest: each top-level `def` or `class` whose source holds no
prefilter token of a rule the run runs (`holds_token_of`) keeps its header lines
(signature, bases, a class's decorators: what rules see of a definition they do not
enter) and its body becomes one `...` line (a function loses its decorators too: test
files' parametrize lists are long), unless it
imports a name the kept code uses (rules resolve names through every import of the
file) or mentions a name a top-level assignment holding a token binds (the rewire moves
a legacy constant's list into the classes whose `initialize` uses it). Top-level
imports binding no name the rest still uses go as well (rules resolve only the names
they meet), except those a fix depends on: the last import before the
first definition (where a fix adds its own) and those binding a name the rules look up
unmentioned (`rules.NAMES_LOOKED_UP`). The body's other lines are dropped, not
blanked: LibCST makes a node of every blank line, and the traversal and
`cst/positions.py` would pay for each. Kept lines stay byte for byte, so columns do
not change; `Hollowed.original_line` maps a line of the hollowed source back to the
original's.

It works from CPython's tree: a file CPython cannot read (syntax newer than the Python
running the tool, such as PEP 695 before 3.12) is not hollowed, and LibCST parses it
whole (engine/analysis/codemod.py).

Only `check` does this; `fix` and `diff` parse the whole file (their removals of
orphaned imports count mentions everywhere) but their traversal skips the same
definitions (`irrelevant_definitions`). tests/test_hollow.py checks that findings and
fixes are the same either way.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from typing import NamedTuple

from acp_migrate.engine.analysis.prefilter import may_contain_legacy
from acp_migrate.sdk import IMPORTS_SDK

_LEADING_SPACE = re.compile(rb"[ \t\f]*")
# Imports anywhere count: rules resolve names through every import of the file.
_IMPORT = re.compile(rb"\bimport\b")
_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEFINITIONS = (*_FUNCTIONS, ast.ClassDef)
_AGENT_FACTORY_CALL = b"AgentSideConnection"
_CONNECTION_CLASSES = (_AGENT_FACTORY_CALL, b"ClientSideConnection")
# Whether check keeps the code of a definition (or an import) whole for what it holds.
HoldsToken = Callable[[bytes], bool]


def holds_token_of(sdk) -> HoldsToken:
    """What keeps code whole in a run with the SDK target `sdk` (None: none): a token of
    a rule that run runs, or an SDK 0.4-0.6 `AgentSideConnection(factory, ...)`, whose
    factory the rewire reads (below). A rule that does not run reads nothing: its tokens
    keep nothing (without a target, an agent's `prompt` method no SDK rule moves)."""

    def holds_token(code: bytes) -> bool:
        return may_contain_legacy(code, sdk, ".py") or _AGENT_FACTORY_CALL in code

    return holds_token


def irrelevant_definitions(
    source: bytes, tree: ast.Module, holds_token: HoldsToken = may_contain_legacy
) -> list[ast.stmt]:
    """The top-level definitions of `tree` that cannot matter to any rule (see above)."""
    return _irrelevant(source.splitlines(keepends=True), tree, holds_token)


def _irrelevant(lines: list[bytes], tree: ast.Module, holds_token: HoldsToken) -> list[ast.stmt]:
    candidates: list[tuple[ast.stmt, bytes]] = []
    kept: list[bytes] = []  # the source of every top-level statement that stays whole
    assigned: dict[bytes, list[bytes]] = {}  # a name a top-level assignment binds -> its sources
    constants: set[bytes] = set()  # names bound by top-level assignments holding a token
    docstring = _docstring(tree)
    held = False
    for statement, segment, repeated in _segments(lines, tree.body):
        held = held if repeated else holds_token(segment)
        if isinstance(statement, _DEFINITIONS) and _hollowable(statement, lines) and not held:
            candidates.append((statement, segment))
        elif statement is not docstring:  # prose: its words use no name
            if not repeated:
                kept.append(segment)
            if isinstance(statement, (ast.Assign, ast.AnnAssign)):
                targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                names = [t.id.encode() for t in targets if isinstance(t, ast.Name) and t.id.isascii()]
                for name in names:  # a line of many statements is one segment, added once
                    sources = assigned.setdefault(name, [])
                    if not sources or sources[-1] is not segment:
                        sources.append(segment)
                if held:
                    constants.update(names)
    # An import inside a definition binds its name for the whole file, as rules resolve
    # names: keep the definition when a kept statement uses a name it imports. A class
    # using a legacy constant (`CAPS = AgentCapabilities(slash_commands=...)`) is where
    # the rewire moves the constant's list: it stays whole too.
    used = {*_WORD.findall(b"".join(kept)), b"*"}
    irrelevant = [
        (statement, segment)
        for statement, segment in candidates
        if not (_IMPORT.search(segment) and _imported_names(statement) & used)
        and not (constants and not constants.isdisjoint(_WORD.findall(segment)))
    ]
    # A class made of a kept class (a mixin whose `initialize` holds the list) stays whole:
    # the rewire binds the mixin's advertiser from its connection attribute.
    classes = {s.name for s in tree.body if isinstance(s, ast.ClassDef)} - {s.name for s, _ in irrelevant}
    grown = True
    while grown:
        made_of = [s for s, _ in irrelevant if isinstance(s, ast.ClassDef) and _base_names(s) & classes]
        classes.update(s.name for s in made_of)
        irrelevant = [(s, segment) for s, segment in irrelevant if s not in made_of]
        grown = bool(made_of)
    # What an SDK 0.4-0.6 `AgentSideConnection(factory, ...)` is given stays whole, with the
    # wrappers and names it goes through: the rewire reads their code to prove that the
    # agent gets its connection (rules/shared/agent_factory.py).
    read = {word for segment in kept if _AGENT_FACTORY_CALL in segment for word in _WORD.findall(segment)}
    grown = bool(read)
    while grown:
        reached = [(s, segment) for s, segment in irrelevant if s.name.encode() in read]
        more = {word for name in read & assigned.keys() for word in _WORD.findall(b"".join(assigned.pop(name)))}
        more.update(word for _, segment in reached for word in _WORD.findall(segment))
        irrelevant = [pair for pair in irrelevant if pair not in reached]
        grown = not more <= read
        read |= more
    # In a file naming a connection class, a definition using a class of the file or one
    # a top-level import binds (a test importing the agent) stays whole: ACP222 moves the
    # constructions passing the connection to an agent whose `__init__` it moves; in one
    # only importing the SDK (a test's bare mock connection), one calling an imported
    # class with one argument.
    if irrelevant and any(name in segment for segment in kept for name in _CONNECTION_CLASSES):
        used = {name.encode() for name in _class_like_names(tree, local=True)}
        irrelevant = [(s, segment) for s, segment in irrelevant if used.isdisjoint(_WORD.findall(segment))]
    elif irrelevant and any(IMPORTS_SDK.search(segment) for segment in kept):
        imported = set(_class_like_names(tree, local=False))
        irrelevant = [(s, segment) for s, segment in irrelevant if not _constructs(s, imported)]
    return [statement for statement, _ in irrelevant]


def _class_like_names(tree: ast.Module, *, local: bool) -> Iterator[str]:
    """The names the module's top-level `from` imports bind, but the SDK's, and its
    classes where `local`."""
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef) and local:
            yield statement.name
        elif isinstance(statement, ast.ImportFrom) and (statement.level or statement.module.partition(".")[0] != "acp"):
            yield from (alias.asname or alias.name for alias in statement.names)


def _constructs(statement: ast.stmt, names: set[str]) -> bool:
    """Whether `statement` calls one of `names` with one argument (`EchoAgent(conn)`)."""
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in names
        and len(node.args) == 1
        and not node.keywords
        for node in ast.walk(statement)
    )


def _base_names(node: ast.ClassDef) -> set[str]:
    return {base.id for base in node.bases if isinstance(base, ast.Name)}


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


def hollow_out(
    source: bytes,
    tree: ast.Module,
    looked_up: frozenset[str] = frozenset(),
    holds_token: HoldsToken = may_contain_legacy,
) -> Hollowed | None:
    """`source` with the bodies of the top-level definitions that cannot matter replaced
    and the imports nothing kept uses dropped (see the module docstring), or None when
    there is nothing to cut. Imports binding a name of `looked_up` stay whatever uses it."""
    lines = source.splitlines(keepends=True)
    irrelevant = _irrelevant(lines, tree, holds_token)
    cuts: list[tuple[int, int, bytes | None]] = []  # 0-based [start, end) line ranges -> replacement
    for statement in irrelevant:
        if isinstance(statement, _FUNCTIONS):
            # Its decorators go too (test files' parametrize lists are long): no rule
            # looks at a function's decorators, and fix's traversal skips them as well.
            cuts.append((_first_line(statement) - 1, statement.lineno - 1, None))
        start, end = _body_lines(statement)
        indent = _LEADING_SPACE.match(lines[start]).group()
        # The last line's ending: a source without a final line break keeps none.
        cuts.append((start, end, indent + b"..." + _line_ending(lines[end - 1])))
    cuts += [
        (statement.lineno - 1, statement.end_lineno or statement.lineno, None)
        for statement in _unused_imports(lines, tree, irrelevant, looked_up, holds_token)
    ]
    if not cuts:
        return None
    kept: list[bytes] = []
    origin: list[int] = []
    copied = 0  # lines[:copied] are done
    for start, end, replacement in sorted(cuts):
        kept += lines[copied:start]
        origin += range(copied + 1, start + 1)
        if replacement is not None:
            kept.append(replacement)
            origin.append(start + 1)
        copied = end
    kept += lines[copied:]
    origin += range(copied + 1, len(lines) + 2)
    return Hollowed(b"".join(kept), origin)


def _segments(lines: list[bytes], statements: list[ast.stmt]) -> Iterator[tuple[ast.stmt, bytes, bool]]:
    """Each statement, the source of its lines, and whether they are the previous
    statement's lines: statements on one line (`a; a; a`) share one segment, as copying
    or scanning the line once per statement would be quadratic in its length."""
    previous: tuple[int, int] | None = None
    segment = b""
    for statement in statements:
        span = (_first_line(statement) - 1, statement.end_lineno or statement.lineno)
        repeated = span == previous
        if not repeated:
            segment, previous = b"".join(lines[span[0] : span[1]]), span
        yield statement, segment, repeated


def _body_lines(statement: ast.stmt) -> tuple[int, int]:
    """The 0-based [start, end) lines of a hollowable definition's body."""
    return _first_line(statement.body[0]) - 1, statement.end_lineno or statement.lineno  # type: ignore[attr-defined]


def _unused_imports(
    lines: list[bytes], tree: ast.Module, irrelevant: list[ast.stmt], looked_up: frozenset[str], holds_token: HoldsToken
) -> list[ast.stmt]:
    """Top-level imports binding no name the hollowed source still uses: rules resolve
    only the names they meet. Kept: `__future__` and star imports, imports holding a
    token or binding a `looked_up` name, imports sharing a line with another statement,
    and the last import before the first definition (where a fix adds its imports)."""
    hollowed = {id(statement) for statement in irrelevant}
    docstring = _docstring(tree)
    text: list[bytes] = []
    imports: list[tuple[int, ast.stmt]] = []
    for index, (statement, segment, repeated) in enumerate(_segments(lines, tree.body)):
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            imports.append((index, statement))
        elif id(statement) in hollowed:  # what stays of it: its header
            header_start = statement.lineno if isinstance(statement, _FUNCTIONS) else _first_line(statement)
            text += lines[header_start - 1 : _body_lines(statement)[0]]
        elif statement is not docstring and not repeated:
            text.append(segment)
    used = {*_WORD.findall(b"".join(text)), b"*", *(name.encode() for name in looked_up)}
    first_definition = next((s.lineno for s in tree.body if isinstance(s, _DEFINITIONS)), None)
    before_definitions = [s for _, s in imports if first_definition is None or s.lineno < first_definition]
    section_end = before_definitions[-1] if before_definitions else None
    unused = []
    for index, statement in imports:
        if statement is section_end:
            continue
        start, end = statement.lineno, statement.end_lineno or statement.lineno
        if isinstance(statement, ast.ImportFrom) and statement.module == "__future__":
            continue
        if index > 0 and (tree.body[index - 1].end_lineno or 0) >= start:
            continue
        if index + 1 < len(tree.body) and tree.body[index + 1].lineno <= end:
            continue
        if holds_token(b"".join(lines[start - 1 : end])) or not _import_names(statement).isdisjoint(used):
            continue
        unused.append(statement)
    return unused


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
    """The names imports anywhere inside `statement` bind."""
    names: set[bytes] = set()
    for node in _statements(statement):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= _import_names(node)
    return names


def _import_names(statement: ast.Import | ast.ImportFrom) -> set[bytes]:
    names: set[bytes] = set()
    for alias in statement.names:
        name = alias.asname or alias.name.split(".")[0]
        # `*`, or a non-ASCII name (spelled otherwise in a legacy encoding): counts as used.
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
