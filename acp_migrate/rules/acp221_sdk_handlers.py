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

Its calls move with it (a handler renamed without them raises `AttributeError` from
0.7): a call on `self` or `cls` in the class or a subclass of this module, on `super()`,
or on an instance provably of the class (`agent = EchoAgent(conn)` bound once in its
scope, or the class called in place; in another file of the project too, a test
importing the class) whose one argument builds the request model with keyword
arguments becomes the keyword call of the moved handler:
`self.newSession(NewSessionRequest(cwd=d, mcpServers=[]))` ->
`self.new_session(cwd=d, mcp_servers=[])`, as ACP223 writes a connection's call.
ACP221, which renames the handler, owns its calls (ACP223 owns the SDK's connection
methods, which keep their old name up to 1.0): a call ACP221 moves or names, ACP223
leaves. A call of the old name on a class holding the handler in its 0.7 form already
(a run of fix before) is treated the same.
Named for a person, the call left as it is: a request model held elsewhere (`request =
...; self.newSession(request)`), positional fields, a model lacking a field 0.6
required (the call raised a `ValidationError` there: no call on 0.7 means the same),
and `getattr(self, "newSession")`. A receiver it cannot tell (a parameter, an
attribute, a name bound twice) is taken for a connection, ACP223's.

Reported for a person, the handler left as it is: a request model that escapes its
handler (passed on, stored, returned, `params.model_dump()`, `params.field_meta`: a
person decides what the handler hands on now), a field the target does not pass, a
local already named as a parameter the handler gets, and `setSessionModel` when the
target (0.11.0 on) has no `set_session_model`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from acp_migrate.rules.base import Example, Report, Rule
from acp_migrate.rules.shared.sdk_handlers import CLIENT_HANDLERS, EXTENSIONS, HANDLERS, SAME_NAME, snake

if TYPE_CHECKING:
    import ast

    import libcst as cst

    from acp_migrate.rules.context import FileContext
    from acp_migrate.rules.shared.project_classes import Module

# Handlers only 0.6 spells so: a file holding none has no old agent or client.
CAMEL_HANDLERS = frozenset(old for old in (*HANDLERS, *CLIENT_HANDLERS, *EXTENSIONS) if old not in SAME_NAME)
# The SDK's protocol a class subclasses -> the handlers it declares (0.6 name -> 0.7 name).
PROTOCOLS = {
    "Agent": {old: new for old, (new, _) in HANDLERS.items()},
    "Client": CLIENT_HANDLERS,
}
BASES = {f"{module}.{side}": side for module in ("acp", "acp.interfaces", "acp.core") for side in PROTOCOLS}
HANDLER_NAMES = CAMEL_HANDLERS | SAME_NAME
NEW_NAMES = {**PROTOCOLS["Agent"], **PROTOCOLS["Client"], **EXTENSIONS}
MAX_BASE_DEPTH = 6  # this module's classes followed up an inheritance chain


class _Move(NamedTuple):
    """How fix moves one handler."""

    new: str
    message: str
    # Its parameters after `self`, before `**kwargs`; None: renamed only (an extension's).
    kept: tuple[str, ...] | None = None
    # The names of the target's parameters, and those 0.6's request model required.
    names: tuple[str, ...] = ()
    required: frozenset[str] = frozenset()
    restated: tuple[cst.SimpleStatementLine, ...] = ()
    reads: tuple[tuple[str, cst.Attribute], ...] = ()


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

    def __init__(self, context: FileContext) -> None:
        super().__init__(context)
        self._moves: dict[cst.ClassDef, dict[cst.FunctionDef, _Move | str]] = {}
        self._scope_instances: dict[cst.CSTNode, dict[str, str]] = {}
        self._imported_classes: dict[str, tuple[cst.ClassDef, Module] | None] = {}
        # The calls of the handlers it moves: ACP223's rewrite of a connection's call is not theirs.
        self._calls: set[cst.Call] = set()
        context.claim(self.code, lambda lineage: lineage[-1] in self._calls)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        import libcst as cst

        for method, move in self._handlers(node).items():
            if isinstance(move, str):
                self._left(method, move)
                continue
            report = Report(method, self.code, move.message, fixable=True)
            with self.context.fix(report):
                self.context.replace(method.name, cst.Name(move.new))
                if move.kept is None:
                    continue
                self_name = method.params.params[0].name.value
                new_params = cst.parse_statement(f"def f({', '.join([self_name, *move.kept, '**kwargs'])}): pass\n")
                self.context.replace(method.params, new_params.params)
                for line in move.restated:
                    self.context.remove(line)
                gone = {line.body[0].value for line in move.restated}
                for attr, read in move.reads:
                    if read not in gone:
                        self.context.replace(read, cst.Name(snake(attr)))

    def visit_Call(self, node: cst.Call) -> None:
        # On visiting: the claim on the call is in place before ACP223 leaves it.
        import libcst as cst

        func = node.func
        if isinstance(func, cst.Name) and func.value == "getattr" and len(node.args) >= 2:
            name = node.args[1].value
            if isinstance(name, cst.SimpleString) and isinstance(name.evaluated_value, str):
                self._fetched(node, node.args[0].value, name.evaluated_value)
        elif isinstance(func, cst.Attribute) and func.attr.value in HANDLER_NAMES:
            self._called(node, func)

    def _handlers(self, node: cst.ClassDef) -> dict[cst.FunctionDef, _Move | str]:
        """Each handler the class defines -> how fix moves it, or why a person must."""
        import libcst as cst

        if node in self._moves:
            return self._moves[node]
        moves: dict[cst.FunctionDef, _Move | str] = {}
        self._moves[node] = moves
        side = next((BASES[q] for base in node.bases if (q := self.context.resolve(base.value)) in BASES), None)
        methods = (
            [s for s in node.body.body if isinstance(s, cst.FunctionDef)]
            if isinstance(node.body, cst.IndentedBlock)
            else []
        )
        if side is None and not any(m.name.value in CAMEL_HANDLERS for m in methods):
            return moves
        # A class of neither protocol is judged by its handlers' names, of either side.
        handlers = PROTOCOLS[side] if side else {**PROTOCOLS["Agent"], **PROTOCOLS["Client"]}
        for method in methods:
            old = method.name.value
            if old in EXTENSIONS:
                moves[method] = _Move(EXTENSIONS[old], self._message(method, EXTENSIONS[old], side))
            elif old in handlers:
                move = self._handler(method, handlers[old], side)
                if move is not None:
                    moves[method] = move
        return moves

    def _handler(self, method: cst.FunctionDef, new: str, side: str | None) -> _Move | str | None:
        """How fix moves the handler `method` to `new`, or why a person must; None: no
        handler of one request model."""
        from acp_migrate.rules.shared.sdk_handlers import signature

        old = method.name.value
        parameter = _single_parameter(method)
        if parameter is None:
            return None  # not one request model: the keyword form already, or not a handler
        reads, escapes = _uses(method, parameter.name.value)
        read_fields = {attr for attr, _ in reads}
        if (
            old in SAME_NAME
            and not (parameter.annotation and self._is_request_model(parameter.annotation.annotation))
            and (escapes or not read_fields or not read_fields <= set(HANDLERS[old][1]))
        ):
            return None  # `cancel(self, session_id)`: the keyword form already
        target = self.context.settings.sdk.version if self.context.settings.sdk else None
        parameters = signature(new, target) if target else None
        message = self._message(method, new, side)
        if parameters is None:
            return f"{message}; SDK {target} has no `{new}`: decide what replaces it"
        names = [p.split("=")[0] for p in parameters.split(", ")]
        if escapes:
            return (
                f"{message}; the request model escapes the handler ({escapes[0]}): "
                "decide what it hands on from its keyword arguments"
            )
        unknown = sorted(attr for attr in read_fields if snake(attr) not in names)
        if unknown:
            return f"{message}; SDK {target} passes no {', '.join(unknown)} by name: decide where it comes from"
        restated = _restatements(method, parameter.name.value)
        clashes = sorted(set(names) & _bare_names(method, parameter.name.value) - restated.keys())
        if clashes:
            return f"{message}; the handler already has a local {', '.join(clashes)}: rename it first"
        # The target's parameters without a default, and those the body reads; the
        # rest arrive in `**kwargs`, on every release from 0.7.0.
        used = {snake(attr) for attr in read_fields}
        kept = tuple(p for p, name in zip(parameters.split(", "), names, strict=True) if "=" not in p or name in used)
        return _Move(new, message, kept, tuple(names), _required(new), tuple(restated.values()), tuple(reads))

    # -- calls of the handlers it moves ------------------------------------------------
    def _called(self, node: cst.Call, func: cst.Attribute) -> None:
        import libcst as cst

        from acp_migrate.rules.shared.request_calls import keyword_arguments, renamed_call

        old = func.attr.value
        move = self._move_of(func.value, old)
        if move is None:
            return
        self._calls.add(node)
        shown = f"`{self.context.code(node, 60)}`"
        if move.kept is None:
            report = Report(node, self.code, f"{shown}: the handler `{old}` is `{move.new}` from SDK 0.7", fixable=True)
            with self.context.fix(report):
                self.context.replace(node.func, func.with_changes(attr=cst.Name(move.new)))
            return
        moved = f"`{old}`" if old == move.new else f"`{old}` (`{move.new}` from SDK 0.7)"
        message = f"{shown}: the handler {moved} takes one keyword argument per field"
        only = node.args[0] if len(node.args) == 1 else None
        model = only.value if only is not None and only.keyword is None and not only.star else None
        if not isinstance(model, cst.Call) or not self._is_request_model(model.func):
            self._left(node, f"{message}; no request model is built in the call: pass its fields by keyword")
            return
        target = self.context.settings.sdk.version
        keywords = keyword_arguments(model, (), move.names, target)
        if isinstance(keywords, str):
            self._left(node, f"{message}; {keywords}")
            return
        missing = sorted(_camel(field) for field in move.required - {arg.keyword.value for arg in keywords})
        if missing:
            self._left(
                node,
                f"{message}; its request model lacks {', '.join(missing)}, which SDK 0.6 required (the call raised "
                "there): decide what it passes",
            )
            return
        report = Report(node, self.code, message, fixable=True)
        with self.context.fix(report):
            self.context.replace(node, renamed_call(node, func, move.new, keywords))

    def _fetched(self, node: cst.Call, receiver: cst.BaseExpression, old: str) -> None:
        move = self._move_of(receiver, old) if old in HANDLER_NAMES else None
        if move is not None and move.new != old:
            self._calls.add(node)
            self._left(
                node,
                f"`{self.context.code(node, 60)}`: the handler `{old}` is `{move.new}` from SDK 0.7, "
                "taking keyword arguments: fetch that one and call it so",
            )

    def _move_of(self, receiver: cst.BaseExpression, old: str) -> _Move | None:
        """How fix moves the handler `receiver.old`, where `receiver` is provably an
        instance of a class of this module: `self` or `cls` in it, `super()`, the class
        called in place, or a name its scope binds once, to such a call."""
        import libcst as cst

        owner = next((s for s in reversed(self.context.scopes) if isinstance(s, cst.ClassDef)), None)
        classes = {s.name.value: s for s in self.context.module.body if isinstance(s, cst.ClassDef)}
        if isinstance(receiver, cst.Name) and receiver.value in ("self", "cls"):
            return self._defined(owner, old, classes, skip=False) if owner is not None else None
        if isinstance(receiver, cst.Name):
            called = self._instances().get(receiver.value)
        elif isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Name):
            called = receiver.func.value
        else:
            return None
        if called == "super" and owner is not None:
            return self._defined(owner, old, classes, skip=True)
        if called in classes:
            return self._defined(classes[called], old, classes, skip=False)
        return self._imported(called, old) if called is not None else None

    def _imported(self, called: str, old: str) -> _Move | None:
        """How fix moves the handler `old` of the class `called` names, imported from
        another file of the project (its run moves it there)."""
        import libcst as cst

        from acp_migrate.rules.shared.project_classes import Module, class_of

        if called not in self._imported_classes:
            self._imported_classes[called] = class_of(self.context, cst.Name(called), Module.of(self.context))
        found = self._imported_classes[called] if old in CAMEL_HANDLERS else None
        if found is None:
            return None
        node, module = found
        methods = _methods(node)
        new = NEW_NAMES[old]
        if old not in methods:
            return self._moved_already(new) if new in methods else None
        side = next((BASES[q] for base in node.bases if (q := module.imports.resolve(base.value)) in BASES), None)
        if old in EXTENSIONS:
            return _Move(new, "")
        if side is not None and old not in PROTOCOLS[side]:
            return None
        move = self._handler(methods[old], new, side)
        return move if isinstance(move, _Move) else None

    def _defined(
        self, node: cst.ClassDef, old: str, classes: dict[str, cst.ClassDef], *, skip: bool, depth: int = 0
    ) -> _Move | None:
        """How fix moves the method `old` that `node` (`skip`: its bases) resolves to, in
        this module's classes; None: none moved. A class holding the handler in its 0.7
        form already (a run of fix before) is as if fix moved it."""
        import libcst as cst

        if not skip:
            methods = _methods(node)
            if old in methods:
                move = self._handlers(node).get(methods[old])
                return move if isinstance(move, _Move) else None
            new = NEW_NAMES.get(old, old)
            if new != old and new in methods:
                return self._moved_already(new)
        for base in node.bases:
            parent = classes.get(base.value.value) if isinstance(base.value, cst.Name) else None
            if parent is not None and depth < MAX_BASE_DEPTH:
                return self._defined(parent, old, classes, skip=False, depth=depth + 1)
        return None

    def _moved_already(self, new: str) -> _Move | None:
        """The move of a handler a class holds in its 0.7 form `new` already: its calls
        move as if fix had moved it."""
        from acp_migrate.rules.shared.sdk_handlers import signature

        if new in EXTENSIONS.values():
            return _Move(new, "")
        parameters = signature(new, self.context.settings.sdk.version)
        if parameters is None:
            return None
        return _Move(new, "", (), tuple(p.split("=")[0] for p in parameters.split(", ")), _required(new))

    def _instances(self) -> dict[str, str]:
        """The names the innermost function (or the module) binds once, to a call of a
        name (`agent = EchoAgent(conn)`) -> that name."""
        import ast

        scope = self.context.function or self.context.module
        if scope not in self._scope_instances:
            if scope is self.context.module:
                self._scope_instances[scope] = _instances(ast.parse(scope.code))
            else:
                code = self.context.module.code_for_node(scope.with_changes(decorators=[]))
                self._scope_instances[scope] = _instances(ast.parse(code).body[0])
        return self._scope_instances[scope]

    def _is_request_model(self, expression: cst.BaseExpression) -> bool:
        qualified = self.context.resolve(expression) or ""
        return qualified.startswith("acp.") and qualified.endswith(("Request", "Notification"))

    def _message(self, method: cst.FunctionDef, new: str, side: str | None) -> str:
        old = method.name.value
        shown = f"`{old}({', '.join(p.name.value for p in method.params.params)})`"
        if side and old != new and old not in EXTENSIONS:
            return f"{shown}: from SDK 0.7 the router calls the inherited `acp.{side}.{new}` stub instead, silently"
        return f"{shown}: from SDK 0.7 handlers are `{new}` taking keyword arguments"

    def _left(self, node: cst.CSTNode, message: str) -> None:
        self.context.report(Report(node, self.code, message, fixable=False))


def _methods(node: cst.ClassDef) -> dict[str, cst.FunctionDef]:
    """The methods a class defines, by name (the last definition wins, as at run time)."""
    import libcst as cst

    return {s.name.value: s for s in getattr(node.body, "body", ()) if isinstance(s, cst.FunctionDef)}


def _camel(field: str) -> str:
    """`mcp_servers` -> `mcpServers`: a field's name up to SDK 0.6."""
    head, *rest = field.split("_")
    return head + "".join(part.capitalize() for part in rest)


def _required(handler: str) -> frozenset[str]:
    """The fields (0.7 names) SDK 0.6's request model of `handler` required: those
    without a default among its 0.7.0 parameters."""
    from acp_migrate.rules.shared.sdk_handlers import signature

    return frozenset(p for p in (signature(handler, "0.7.0") or "").split(", ") if p and "=" not in p)


def _instances(root: ast.AST) -> dict[str, str]:
    """The names the scope `root` (a module or a function) binds once, by `name =
    f(...)` -> `f`; the functions and classes in it bind their own."""
    import ast

    bound: dict[str, int] = {}
    called: dict[str, str] = {}
    pending: list[ast.AST] = [root]
    while pending:
        node = pending.pop()
        for name in _binds(node) if node is not root else ():
            bound[name] = bound.get(name, 0) + 1
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
        ):
            called[node.targets[0].id] = node.value.func.id
        if node is root or not isinstance(node, ast.AsyncFunctionDef | ast.FunctionDef | ast.ClassDef | ast.Lambda):
            pending.extend(ast.iter_child_nodes(node))
    return {name: function for name, function in called.items() if bound.get(name) == 1}


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
