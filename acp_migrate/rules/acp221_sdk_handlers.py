"""ACP221 sdk-handlers: a handler of SDK 0.6 taking one request model, an agent's
(`newSession(self, params)`, `params.sessionId`) or a client's (`requestPermission(self,
params)`, `sessionUpdate`, `readTextFile`, the terminal handlers); from 0.7.0 the SDK
calls `new_session(cwd=..., mcp_servers=...)`, `request_permission(session_id=...,
tool_call=..., options=...)` with keyword arguments.

On a class that subclasses `acp.Agent` or `acp.Client` the break is silent: the class
inherits the protocol's stub `new_session` (`session_update`, `request_permission`, ...),
which the router calls instead of `newSession`, so `session/new` answers `null` and the
client has no session (also `loadSession`, `setSessionMode`, `setSessionModel`), and a
client's permission answer is `null` and its session updates are dropped; a handler whose
parameter is not named `params` answers -32603 instead. Elsewhere the SDK still finds the
camelCase name up to 1.0, with a deprecation warning.

`fix` renames the handler (`newSession` -> `new_session`, `extMethod` -> `ext_method`),
gives it the target's keyword signature (every field arrives by keyword: the
parameters without a default and those the handler reads are named, in the target's
order, the rest land in `**kwargs`: `new_session(self, cwd, **kwargs)`), and reads
each field by its parameter: `params.sessionId` -> `session_id` (a line only restating
a field, `update = params.update`, goes). `initialize`, `prompt`, `authenticate` and
`cancel` kept their names; they move when their parameter is a request model (annotated
so, or only ever read as `params.<field>`).

Reported for a person, the handler left as it is: a request model that escapes its
handler (passed on, stored, returned, `params.model_dump()`, `params.field_meta`: a
person decides what the handler hands on now), a field the target does not pass, a
local already named as a parameter the handler gets, and `setSessionModel` when the
target (0.11.0 on) has no `set_session_model`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acp_migrate.rules.base import Example, Report, Rule
from acp_migrate.rules.shared.sdk_handlers import CLIENT_HANDLERS, EXTENSIONS, HANDLERS, SAME_NAME

if TYPE_CHECKING:
    import libcst as cst

# Handlers only 0.6 spells so: a file holding none has no old agent or client.
CAMEL_HANDLERS = frozenset(old for old in (*HANDLERS, *CLIENT_HANDLERS, *EXTENSIONS) if old not in SAME_NAME)
# The SDK's protocol a class subclasses -> the handlers it declares (0.6 name -> 0.7 name).
PROTOCOLS = {
    "Agent": {old: new for old, (new, _) in HANDLERS.items()},
    "Client": CLIENT_HANDLERS,
}
BASES = {f"{module}.{side}": side for module in ("acp", "acp.interfaces", "acp.core") for side in PROTOCOLS}


class RequestObjectHandler(Rule):
    code = "ACP221"
    name = "sdk-handlers"
    summary = "SDK 0.7 handlers take keywords."
    fixable = True
    sdk_release = "0.7.0"
    triggers = tuple(name.encode() for name in sorted(CAMEL_HANDLERS))
    screen_words = CAMEL_HANDLERS
    examples = (
        Example(
            before=(
                "from uuid import uuid4\n"
                "\n"
                "from acp import Agent, NewSessionRequest, NewSessionResponse\n"
                "\n"
                "\n"
                "class EchoAgent(Agent):\n"
                "    async def newSession(self, params: NewSessionRequest) -> NewSessionResponse:\n"
                "        self.cwd = params.cwd\n"
                "        return NewSessionResponse(sessionId=uuid4().hex)\n"
            ),
            after=(
                "from uuid import uuid4\n"
                "\n"
                "from acp import Agent, NewSessionResponse\n"
                "\n"
                "\n"
                "class EchoAgent(Agent):\n"
                "    async def new_session(self, cwd, **kwargs) -> NewSessionResponse:\n"
                "        self.cwd = cwd\n"
                "        return NewSessionResponse(sessionId=uuid4().hex)\n"
            ),
            target_sdk="1.0.0",
        ),
        Example(
            before=(
                "from acp import Client, SessionNotification\n"
                "\n"
                "\n"
                "class ShowingClient(Client):\n"
                "    async def sessionUpdate(self, params: SessionNotification) -> None:\n"
                "        update = params.update\n"
                "        print(update.content.text)\n"
            ),
            after=(
                "from acp import Client\n"
                "\n"
                "\n"
                "class ShowingClient(Client):\n"
                "    async def session_update(self, session_id, update, **kwargs) -> None:\n"
                "        print(update.content.text)\n"
            ),
            target_sdk="1.0.0",
        ),
        Example(
            before=(
                "from acp import Agent\n"
                "\n"
                "\n"
                "class EchoAgent(Agent):\n"
                "    async def newSession(self, params):\n"
                "        return await self.sessions.create(params)\n"
            ),
            resolved=(
                "from acp import Agent\n"
                "\n"
                "\n"
                "class EchoAgent(Agent):\n"
                "    async def new_session(self, cwd, mcp_servers=None, **kwargs):\n"
                "        return await self.sessions.create(cwd=cwd, mcp_servers=mcp_servers)\n"
            ),
            target_sdk="1.0.0",
        ),
    )

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        import libcst as cst

        side = next((BASES[q] for base in node.bases if (q := self.context.resolve(base.value)) in BASES), None)
        methods = (
            [s for s in node.body.body if isinstance(s, cst.FunctionDef)]
            if isinstance(node.body, cst.IndentedBlock)
            else []
        )
        if side is None and not any(m.name.value in CAMEL_HANDLERS for m in methods):
            return
        # A class of neither protocol is judged by its handlers' names, of either side.
        handlers = PROTOCOLS[side] if side else {**PROTOCOLS["Agent"], **PROTOCOLS["Client"]}
        for method in methods:
            old = method.name.value
            if old in EXTENSIONS:
                self._rename(method, EXTENSIONS[old], side)
            elif old in handlers:
                self._handler(method, handlers[old], side)

    def _rename(self, method: cst.FunctionDef, new: str, side: str | None) -> None:
        import libcst as cst

        report = Report(method, self.code, self._message(method, new, side), fixable=True)
        with self.context.fix(report):
            self.context.replace(method.name, cst.Name(new))

    def _handler(self, method: cst.FunctionDef, new: str, side: str | None) -> None:
        import libcst as cst

        from acp_migrate.rules.shared.sdk_handlers import signature, snake

        old = method.name.value
        parameter = _single_parameter(method)
        if parameter is None:
            return  # not one request model: the keyword form already, or not a handler
        reads, escapes = _uses(method, parameter.name.value)
        read_fields = {attr for attr, _ in reads}
        if (
            old in SAME_NAME
            and not self._is_request_model(parameter)
            and (escapes or not read_fields or not read_fields <= set(HANDLERS[old][1]))
        ):
            return  # `cancel(self, session_id)`: the keyword form already
        target = self.context.settings.sdk.version if self.context.settings.sdk else None
        parameters = signature(new, target) if target else None
        message = self._message(method, new, side)
        if parameters is None:
            self._left(method, f"{message}; SDK {target} has no `{new}`: decide what replaces it")
            return
        names = [p.split("=")[0] for p in parameters.split(", ")]
        if escapes:
            self._left(
                method,
                f"{message}; the request model escapes the handler ({escapes[0]}): "
                "decide what it hands on from its keyword arguments",
            )
            return
        unknown = sorted(attr for attr in read_fields if snake(attr) not in names)
        if unknown:
            self._left(
                method, f"{message}; SDK {target} passes no {', '.join(unknown)} by name: decide where it comes from"
            )
            return
        restated = _restatements(method, parameter.name.value)
        clashes = sorted(set(names) & _bare_names(method, parameter.name.value) - restated.keys())
        if clashes:
            self._left(method, f"{message}; the handler already has a local {', '.join(clashes)}: rename it first")
            return
        # The target's parameters without a default, and those the body reads; the
        # rest arrive in `**kwargs`, on every release from 0.7.0.
        used = {snake(attr) for attr in read_fields}
        kept = [p for p, name in zip(parameters.split(", "), names, strict=True) if "=" not in p or name in used]
        self_name = method.params.params[0].name.value
        new_params = cst.parse_statement(f"def f({', '.join([self_name, *kept, '**kwargs'])}): pass\n").params
        report = Report(method, self.code, message, fixable=True)
        with self.context.fix(report):
            self.context.replace(method.name, cst.Name(new))
            self.context.replace(method.params, new_params)
            for line in restated.values():
                self.context.remove(line)
            gone = {line.body[0].value for line in restated.values()}
            for attr, node in reads:
                if node not in gone:
                    self.context.replace(node, cst.Name(snake(attr)))

    def _is_request_model(self, parameter: cst.Param) -> bool:
        if parameter.annotation is None:
            return False
        qualified = self.context.resolve(parameter.annotation.annotation) or ""
        return qualified.startswith("acp.") and qualified.endswith(("Request", "Notification"))

    def _message(self, method: cst.FunctionDef, new: str, side: str | None) -> str:
        old = method.name.value
        shown = f"`{old}({', '.join(p.name.value for p in method.params.params)})`"
        if side and old != new and old not in EXTENSIONS:
            return f"{shown}: from SDK 0.7 the router calls the inherited `acp.{side}.{new}` stub instead, silently"
        return f"{shown}: from SDK 0.7 handlers are `{new}` taking keyword arguments"

    def _left(self, method: cst.FunctionDef, message: str) -> None:
        self.context.report(Report(method, self.code, message, fixable=False))


def _single_parameter(method: cst.FunctionDef) -> cst.Param | None:
    import libcst as cst

    params = method.params
    if params.posonly_params or params.kwonly_params or params.star_kwarg or isinstance(params.star_arg, cst.Param):
        return None
    if len(params.params) != 2 or params.params[1].default is not None:
        return None
    return params.params[1]


def _uses(method: cst.FunctionDef, name: str) -> tuple[list[tuple[str, cst.Attribute]], list[str]]:
    """The reads `name.<attr>` in the method's body, and how else it is used (as code)."""
    import libcst as cst

    from acp_migrate.cst.walk import walk

    reads: list[tuple[str, cst.Attribute]] = []
    escapes: list[str] = []
    module = cst.Module([])

    class Uses(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> bool:
            if isinstance(node.value, cst.Name) and node.value.value == name:
                if node.attr.value in ("field_meta", "model_dump", "model_dump_json", "model_copy"):
                    escapes.append(f"`{module.code_for_node(node)}`")
                else:
                    reads.append((node.attr.value, node))
                return False
            return True

        def visit_Name(self, node: cst.Name) -> None:
            if node.value == name:
                escapes.append(f"`{name}` itself")

    walk(method.body, Uses())
    return reads, escapes


def _restatements(method: cst.FunctionDef, parameter: str) -> dict[str, cst.SimpleStatementLine]:
    """The lines of the body only restating a field under its 0.7 name (`update =
    params.update`), by that name, which nothing else in the method binds: the
    parameter holds it now."""
    import ast

    import libcst as cst

    from acp_migrate.rules.shared.sdk_handlers import snake

    found = {}
    for line in method.body.body if isinstance(method.body, cst.IndentedBlock) else ():
        small = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
        if not isinstance(small, cst.Assign) or len(small.targets) != 1:
            continue
        target, value = small.targets[0].target, small.value
        if (
            isinstance(target, cst.Name)
            and isinstance(value, cst.Attribute)
            and isinstance(value.value, cst.Name)
            and value.value.value == parameter
            and snake(value.attr.value) == target.value
            and target.value not in found
        ):
            found[target.value] = line
    if not found:
        return found
    bound: dict[str, int] = {}
    for node in ast.walk(ast.parse(cst.Module([]).code_for_node(method.with_changes(decorators=[])))):
        for name in _binds(node):
            bound[name] = bound.get(name, 0) + 1
    return {name: line for name, line in found.items() if bound.get(name) == 1}


def _binds(node) -> tuple[str, ...]:
    """The names a CPython tree node binds."""
    import ast

    if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
        return (node.id,)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return (node.name,)
    if isinstance(node, ast.alias):
        return ((node.asname or node.name).partition(".")[0],)
    if isinstance(node, ast.arg):
        return (node.arg,)
    if isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
        return (node.name,)
    if isinstance(node, ast.MatchMapping) and node.rest:
        return (node.rest,)
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return tuple(node.names)
    return ()


def _bare_names(method: cst.FunctionDef, parameter: str) -> set[str]:
    """Every bare name the body mentions (locals, globals, attributes' roots)."""
    from acp_migrate.cst.names import mentions

    return {name for name in mentions(method.body) if name != parameter}
