"""The rewrite of a test of an agent's initialize-time commands into a test of its
per-session advertisement (RFC-0032 §4: such tests are replaced, not deleted).

A test is rewritten when every read of the field in it is of what an agent's
`initialize` returned (`response = await agent.initialize(request)`, then
`response.agent_capabilities.slash_commands`, directly or through locals, the wire
key of a `model_dump` included): the arrangement and the `initialize` call stay, each
read becomes what the agent's advertiser tells every session,
`agent.command_advertiser.commands()` (a wire-key read dumps each command as the test
dumped the response), and the assertions stay. The test's name and docstring (and
those of its class and module) stop speaking of initialize.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import libcst as cst

from acp_migrate.cst.names import last_part, mentions
from acp_migrate.cst.walk import walk
from acp_migrate.rules.shared import ADVERTISER, CAPABILITY_KEYS, DUMPERS, SCHEMA_CLASSES
from acp_migrate.rules.shared.legacy_tests.reads import FieldRef, TestValues
from acp_migrate.rules.shared.legacy_tests.syntax import params, simple_assignment
from acp_migrate.rules.shared.syntax import string_value, subscript_key

# What the advertiser answers: the commands every session of the agent is advertised.
COMMANDS_METHOD = "commands"
# How far a read is followed back through locals to the `initialize` call.
MAX_HOPS = 8
# The names a test gives a connection or a client it did not build (a conftest fixture).
_CONNECTION_WORDS = re.compile(r"conn|client|transport|session", re.IGNORECASE)
_VERBS = frozenset(
    {"advertises", "exposes", "expose", "includes", "include", "has", "have", "returns", "return", "lists", "contains"}
)


@dataclass
class Rewrite:
    """The edits of one rewritten test: each field read -> what replaces it, and its new name."""

    reads: dict[cst.CSTNode, cst.BaseExpression] = field(default_factory=dict)
    name: str | None = None  # None: the name says nothing of initialize, and stays
    messages: dict[cst.SimpleString, cst.SimpleString] = field(default_factory=dict)  # assertions' words
    # The locals only the reads used: a read goes, the `initialize` call stays as a statement.
    statements: dict[cst.BaseStatement, cst.BaseStatement | None] = field(default_factory=dict)

    __test__ = False


def plan_rewrite(values: TestValues, function: cst.FunctionDef, refs: list[FieldRef]) -> Rewrite | None:
    """The rewrite of `function` whose present field references are `refs`; None when one
    of them is not of an agent's initialize result."""
    if not refs:
        return None
    rewrite = Rewrite()
    for ref in refs:
        replacement = _replacement(values, function, ref)
        if replacement is None:
            return None
        rewrite.reads[ref.node] = replacement
    _unused_locals(function, rewrite)
    messages = _Messages()
    walk(function.body, messages)
    for message in messages.found:
        edit = _string_edit(message)
        if edit is not None:
            rewrite.messages[message] = edit
    return rewrite


def _unused_locals(function: cst.FunctionDef, rewrite: Rewrite) -> None:
    """The locals (`caps = response.agent_capabilities`, `response = await ...`) that
    nothing but the rewritten reads used."""
    if not isinstance(function.body, cst.IndentedBlock):
        return
    counts = mentions(function.body)
    for read in rewrite.reads:
        counts.subtract(mentions(read))
    changed = True
    while changed:
        changed = False
        for statement in function.body.body:
            target, value = simple_assignment(statement)
            if target is None or value is None or statement in rewrite.statements or counts[target] != 1:
                continue
            if _holds_any(statement, rewrite.reads):
                continue  # a read is replaced there: the statement is not the read's input
            if isinstance(value, (cst.Name, cst.Attribute, cst.Subscript)) and not _calls(value):
                rewrite.statements[statement] = None
                counts.subtract(mentions(statement))
            elif isinstance(value, (cst.Await, cst.Call)):  # the arrangement's call stays
                assert isinstance(statement, cst.SimpleStatementLine)
                rewrite.statements[statement] = statement.with_changes(body=[cst.Expr(value)])
                counts[target] -= 1
            else:
                continue
            changed = True


def _holds_any(node: cst.CSTNode, wanted: dict[cst.CSTNode, cst.BaseExpression]) -> bool:
    finder = _Finder(wanted)
    walk(node, finder)
    return finder.found


class _Finder(cst.CSTVisitor):
    def __init__(self, wanted: dict[cst.CSTNode, cst.BaseExpression]) -> None:
        self.wanted = wanted
        self.found = False

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.found = self.found or node in self.wanted
        return not self.found


def _calls(node: cst.CSTNode) -> bool:
    finder = _CallFinder()
    walk(node, finder)
    return finder.found


class _CallFinder(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found = False

    def visit_Call(self, node: cst.Call) -> None:
        self.found = True


class _Messages(cst.CSTVisitor):
    """The plain string messages of the assertions of a test."""

    def __init__(self) -> None:
        self.found: list[cst.SimpleString] = []

    def visit_Assert(self, node: cst.Assert) -> None:
        if isinstance(node.msg, cst.SimpleString):
            self.found.append(node.msg)


def _replacement(values: TestValues, function: cst.FunctionDef, ref: FieldRef) -> cst.BaseExpression | None:
    node = ref.node
    if isinstance(node, cst.Attribute) or (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value == "getattr"
        and len(node.args) == 2
    ):
        base, wire = ref.base, False
    elif isinstance(node, cst.Subscript):
        base, wire = ref.base, True
    else:
        return None  # a presence check (`"slashCommands" in data`, `hasattr`): not a list to replace
    if base is None:
        return None
    found = _agent(values, function, base, dump=None, hops=0)
    if found is None:
        return None
    agent, dump = found
    code = values.context.code(agent, 1000)
    commands = f"{code}.{ADVERTISER}.{COMMANDS_METHOD}()"
    if wire:
        if dump is None:
            return None
        arguments = ", ".join(values.module.code_for_node(arg).strip().rstrip(",") for arg in dump.args)
        commands = f"[command.{dump.func.attr.value}({arguments}) for command in {commands}]"  # type: ignore[attr-defined]
    return cst.parse_expression(commands)


def _agent(
    values: TestValues, function: cst.FunctionDef, node: cst.BaseExpression, dump: cst.Call | None, hops: int
) -> tuple[cst.BaseExpression, cst.Call | None] | None:
    """The agent whose `initialize` result `node` is read from (and the dump made of it on
    the way), following the function's locals back; None: not an agent's."""
    if hops > MAX_HOPS:
        return None
    if isinstance(node, cst.Await):
        return _agent(values, function, node.expression, dump, hops + 1)
    if isinstance(node, cst.Name):
        value = _sole_value(function, node.value)
        return None if value is None else _agent(values, function, value, dump, hops + 1)
    if isinstance(node, cst.Attribute) and node.attr.value in CAPABILITY_KEYS:
        return _agent(values, function, node.value, dump, hops + 1)
    if isinstance(node, cst.Subscript) and subscript_key(node) in CAPABILITY_KEYS:
        return _agent(values, function, node.value, dump, hops + 1)
    if not isinstance(node, cst.Call):
        return None
    func = node.func
    if isinstance(func, cst.Attribute) and func.attr.value == "get" and node.args:
        if string_value(node.args[0].value) in CAPABILITY_KEYS:
            return _agent(values, function, func.value, dump, hops + 1)
        return None
    if isinstance(func, cst.Attribute) and func.attr.value in DUMPERS and dump is None:
        return _agent(values, function, func.value, node, hops + 1)
    if node.args and (values.imports.resolve(func) or "") in ("asyncio.run", "run"):
        return _agent(values, function, node.args[0].value, dump, hops + 1)
    if isinstance(func, cst.Attribute) and func.attr.value == "initialize" and _is_agent(values, function, func.value):
        return func.value, dump
    return None


def _is_agent(values: TestValues, function: cst.FunctionDef, node: cst.BaseExpression) -> bool:
    """`node` (a name, or attributes of one: read again, the same object) is an agent
    the test built or was given, not a client-side connection of the SDK, whose
    `initialize` asks an agent over the wire (its commands arrive in notifications)."""
    base = node
    while isinstance(base, cst.Attribute):
        base = base.value
    if not isinstance(base, cst.Name) or values.schema(node, SCHEMA_CLASSES):
        return False
    last = node.attr.value if isinstance(node, cst.Attribute) else node.value
    if isinstance(node, cst.Name):
        made = _sole_value(function, node.value)
        if made is not None:
            return _made_by_project(values, made)
        param = next((p for p in params(function) if p.name.value == node.value), None)
        if param is not None and param.annotation is not None and _from_sdk(values, param.annotation.annotation):
            return False
        # A fixture's body is not read: `check` sees it cut when it holds no legacy token.
        fixture = values.functions.get(node.value) if param is not None else None
        if fixture is not None and fixture.returns is not None and _from_sdk(values, fixture.returns.annotation):
            return False
    return not _CONNECTION_WORDS.search(last)


def _made_by_project(values: TestValues, value: cst.BaseExpression) -> bool:
    while isinstance(value, cst.Await):
        value = value.expression
    if isinstance(value, cst.Call):
        return not _from_sdk(values, value.func)
    return True


def _from_sdk(values: TestValues, node: cst.BaseExpression) -> bool:
    """Imported from the ACP SDK's package (`acp`, `acp.core`, ...): its connections are not agents."""
    resolved = values.imports.resolve(node) or ""
    return resolved.split(".")[0] == "acp" and not (last_part(resolved) or "").endswith("Agent")


def _sole_value(function: cst.FunctionDef, name: str) -> cst.BaseExpression | None:
    """The value of the one plain assignment of `name` in the function's body, if it has
    exactly one and nothing else binds the name."""
    found = None
    if not isinstance(function.body, cst.IndentedBlock):
        return None
    for statement in function.body.body:
        target, value = simple_assignment(statement)
        if target == name:
            if found is not None:
                return None
            found = value
    return found


# -- the words -------------------------------------------------------------------------------


def rewritten_name(name: str, taken: set[str]) -> str | None:
    """`test_initialize_exposes_skill_commands` -> `test_sessions_advertise_skill_commands`;
    None when the name says nothing of initialize or the new one is taken."""
    words = name.split("_")
    if "initialize" not in words[1:]:
        return None
    index = words.index("initialize", 1)
    rest = words[index + 1 :]
    while rest and rest[0] in ("response", "result"):
        rest = rest[1:]
    if rest and rest[0] in _VERBS:
        rest = rest[1:]
    new = "_".join([*words[:index], "sessions", "advertise", *rest])
    return None if new in taken or new == name else new


_PHRASES = (
    (
        re.compile(
            r"\b(?:the )?(?:ACP )?initialize (?:response |result )?"
            r"(?:includes|has|exposes|contains|lists|returns|advertises)\b",
            re.IGNORECASE,
        ),
        "every session is advertised",
    ),
    (
        re.compile(r"\b(?:in|at|from) (?:the )?(?:ACP )?initialize(?: response| result)?\b", re.IGNORECASE),
        "per session",
    ),
    (re.compile(r"\b(?:ACP )?initialize(?:-time)? (?:response|result)\b", re.IGNORECASE), "per-session advertisement"),
    (re.compile(r"\binitialize-time\b", re.IGNORECASE), "per-session"),
)


def rewritten_docstring(text: str) -> str | None:
    """The docstring's text speaking of sessions where it spoke of initialize; None: unchanged."""
    new = text
    for pattern, words in _PHRASES:
        new = pattern.sub(lambda match, words=words: words.capitalize() if match.group(0)[0].isupper() else words, new)
    return None if new == text else new


def docstring_edit(body: cst.BaseSuite) -> tuple[cst.SimpleString, cst.SimpleString] | None:
    """(old, new) for the docstring of a module, class or function body, rewritten."""
    statements = body.body if isinstance(body, (cst.IndentedBlock, cst.Module)) else ()
    if not statements or not isinstance(statements[0], cst.SimpleStatementLine) or len(statements[0].body) != 1:
        return None
    small = statements[0].body[0]
    if not (isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString)):
        return None
    edit = _string_edit(small.value)
    return None if edit is None else (small.value, edit)


def _string_edit(node: cst.SimpleString) -> cst.SimpleString | None:
    prefix, quote = node.prefix, node.quote
    inner = node.value[len(prefix) + len(quote) : -len(quote)]
    new = rewritten_docstring(inner)
    return None if new is None else node.with_changes(value=f"{prefix}{quote}{new}{quote}")
