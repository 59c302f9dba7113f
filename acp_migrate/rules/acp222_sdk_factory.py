"""ACP222 sdk-factory: an agent made by a factory around the connection (SDK 0.6:
`AgentSideConnection(lambda conn: EchoAgent(conn), writer, reader)`); from 0.7 the SDK
serves an agent object, `run_agent(EchoAgent())`, and hands it the connection in
`on_connect(conn)`.

The factory still runs up to 1.0, but the agent then holds a connection the SDK made
before the agent existed, and `on_connect` (where 0.7+ code, the runtime shim
included, expects the connection) is never the place it arrives.

`fix` moves the forwarding factory (`lambda conn: EchoAgent(conn)`, or the class
itself) when the class is this module's and its `__init__(self, conn)` only stores the
connection (`self._conn = conn`): `__init__` becomes `on_connect`, the connection
statement becomes `await run_agent(EchoAgent())` (the streams passed on unless they
came from `stdio_streams()`, which `run_agent` calls itself), and the
`await asyncio.Event().wait()` after it goes: `run_agent` serves until the input ends.

An `__init__` doing more than that keeps the rest (`__init__(self)`), and the lines
storing the connection move to `on_connect(self, conn)` after it. A connection
annotated `AgentSideConnection` is annotated `Client` (`acp.interfaces`, what 0.7+
hands `on_connect`): from 0.12 `from acp import AgentSideConnection` warns at import.

The class's other constructions passing the connection would raise TypeError then, and
move with it: those of the class or of a subclass inheriting that `__init__`, in this
module or in another file of the project ACP222 reads (a test importing the class and
naming the connection's class, `AsyncMock(spec=AgentSideConnection)`): in a statement,
`agent = EchoAgent(conn)` becomes `agent = EchoAgent()` then `agent.on_connect(conn)`
(`self.agent = ...` too), a subclass's `super().__init__(conn)` becomes
`super().__init__()` then `self.on_connect(conn)`; in an expression (`return
EchoAgent(conn)`, an argument) the call is named for a person. A file naming neither
connection class (a test's bare `AsyncMock()` connection) is read when it imports the SDK
and holds what another rule reads (`agent.newSession(...)`); one that does neither is
not read: its constructions are neither moved nor named.

The client's side is the same move: `ClientSideConnection(lambda _agent: client, writer,
reader)` (deprecated from 0.7) becomes `connect_to_agent(client, writer, reader)`, the
client object itself; a factory forwarding the connection to this module's class
(`lambda conn: ExampleClient(conn)`) becomes `connect_to_agent(ExampleClient(), writer,
reader)` and its `__init__` moves to `on_connect` as above (a connection annotated
`ClientSideConnection` annotated `Agent`). The connection returned is kept as before (a
client calls the agent through it); a `ClientSideConnection` still named (an annotation)
is imported from `acp.core`, whose import does not warn as `acp`'s does from 0.7.

Reported for a person, the code left as it is: a factory that does more than forward
(it builds other objects, passes other arguments, is a function), an `__init__` that
uses the connection beyond storing it, a class defined elsewhere, an agent's connection
kept for later use, an agent's factory outside an `async` function.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acp_migrate.rules.base import Example, Report, Rule

if TYPE_CHECKING:
    import libcst as cst

    from acp_migrate.rules.context import FileContext
    from acp_migrate.rules.shared.project_classes import Module

CONNECTIONS = frozenset(
    {"acp.AgentSideConnection", "acp.agent.connection.AgentSideConnection", "acp.core.AgentSideConnection"}
)
CLIENT_CONNECTIONS = frozenset(
    {"acp.ClientSideConnection", "acp.client.connection.ClientSideConnection", "acp.core.ClientSideConnection"}
)
STREAMS = frozenset({"acp.stdio_streams", "acp.stdio.stdio_streams"})
FOREVER = "await asyncio.Event().wait()"


class CannotMove(Exception):
    """Why the factory is left to a person."""


class ConnectionFactory(Rule):
    code = "ACP222"
    name = "sdk-factory"
    summary = "SDK 0.7 has `run_agent` and `connect_to_agent`."
    fixable = True
    sdk_release = "0.7.0"
    triggers = (b"AgentSideConnection", b"ClientSideConnection")
    screen_words = frozenset({"AgentSideConnection", "ClientSideConnection"})
    examples = (
        Example(
            before=(
                "import asyncio\n"
                "\n"
                "from acp import Agent, AgentSideConnection, stdio_streams\n"
                "\n"
                "\n"
                "class EchoAgent(Agent):\n"
                "    def __init__(self, conn):\n"
                "        self._conn = conn\n"
                "\n"
                "\n"
                "async def main() -> None:\n"
                "    reader, writer = await stdio_streams()\n"
                "    AgentSideConnection(lambda conn: EchoAgent(conn), writer, reader)\n"
                "    await asyncio.Event().wait()\n"
            ),
            after=(
                "from acp import Agent, run_agent\n"
                "\n"
                "\n"
                "class EchoAgent(Agent):\n"
                "    def on_connect(self, conn):\n"
                "        self._conn = conn\n"
                "\n"
                "\n"
                "async def main() -> None:\n"
                "    await run_agent(EchoAgent())\n"
            ),
            target_sdk="1.0.0",
        ),
        Example(
            before=(
                "from acp import ClientSideConnection\n"
                "\n"
                "\n"
                "def connect(client, writer, reader):\n"
                "    return ClientSideConnection(lambda _agent: client, writer, reader)\n"
            ),
            after=(
                "from acp import connect_to_agent\n"
                "\n"
                "\n"
                "def connect(client, writer, reader):\n"
                "    return connect_to_agent(client, writer, reader)\n"
            ),
            target_sdk="1.0.0",
        ),
        Example(
            before=(
                "from acp import AgentSideConnection\n"
                "\n"
                "\n"
                "async def serve(writer, reader, store):\n"
                "    AgentSideConnection(lambda conn: StoreAgent(conn, store.open()), writer, reader)\n"
            ),
            resolved=(
                "from acp import run_agent\n"
                "\n"
                "\n"
                "async def serve(writer, reader, store):\n"
                "    await run_agent(StoreAgent(store.open()), writer, reader)  # its on_connect(conn) keeps conn\n"
            ),
            target_sdk="1.0.0",
        ),
    )

    @classmethod
    def is_candidate(cls, source: bytes) -> bool:
        # A test building the agent with a bare mock connection (`EchoAgent(AsyncMock())`)
        # names no connection class; read by the screen for another rule, it imports the SDK.
        from acp_migrate.sdk import IMPORTS_SDK

        return super().is_candidate(source) or IMPORTS_SDK.search(source) is not None

    def __init__(self, context: FileContext, *, constructions: bool = True) -> None:
        super().__init__(context)
        # The classes whose `__init__(self, conn)` this module's factories move to
        # `on_connect`, by name, and those factories' connection calls.
        self.moved: dict[str, cst.Call] = {}
        # False: reading another module for its moves only, not its constructions.
        self._constructions = constructions
        self._moved_elsewhere: dict[str, frozenset[str]] = {}
        # The calls that may construct a class passing it the connection: `Name(x)`,
        # and `super().__init__(x)` in a method (-> its class and the method's `self`).
        self._calls: dict[cst.Call, tuple[cst.ClassDef | None, str | None]] = {}

    def visit_Call(self, node: cst.Call) -> None:
        called = self.context.resolve(node.func)
        if called not in CONNECTIONS | CLIENT_CONNECTIONS or not node.args:
            if len(node.args) == 1 and self._constructions:  # the moved `__init__` took one
                self._note(node)
            return
        client = called in CLIENT_CONNECTIONS
        try:
            plan, made = self._plan_client(node) if client else self._plan(node)
        except CannotMove as why:
            self.context.report(Report(node, self.code, f"{_shown(self.context, node)}: {why}", fixable=False))
            return
        news = "`connect_to_agent` connects the client" if client else "`run_agent` serves the agent"
        report = Report(node, self.code, f"{_shown(self.context, node)}: from SDK 0.7 {news}", True)
        with self.context.fix(report):
            plan()
        if made is not None and not self.context.dropped(node, self.code):
            self.moved[made] = node

    def leave_Module(self, node: cst.Module) -> None:
        if self._calls:
            self._move_constructions()

    # -- the other constructions of a class whose `__init__` moved -------------------
    def _note(self, node: cst.Call) -> None:
        import libcst as cst

        if isinstance(node.func, cst.Name):
            self._calls[node] = (None, None)
        elif _is_super_init(node.func):
            scopes, method = self.context.scopes, self.context.function
            owner = scopes[-2] if len(scopes) > 1 and scopes[-1] is method else None
            if isinstance(owner, cst.ClassDef) and method.params.params:
                self._calls[node] = (owner, method.params.params[0].name.value)

    def _move_constructions(self) -> None:
        """Each construction passing the connection to a class whose `__init__(self, conn)`
        moves to `on_connect` (of this module or another of the project, or a subclass
        inheriting that `__init__`) raises TypeError from the move: `agent = C(conn)`
        becomes `agent = C()` and `agent.on_connect(conn)`, `super().__init__(conn)`
        `super().__init__()` and `self.on_connect(conn)`; in an expression it is left to
        a person."""
        import libcst as cst

        from acp_migrate.rules.shared.project_classes import Module

        here = Module.of(self.context)
        parents = self.context.parents
        factories = set(self.moved.values())
        known: dict[str, bool] = {}  # a name's class read once, however often it is called

        def takes_connection_away(expression: cst.BaseExpression) -> bool:
            name = self.context.code(expression)
            if name not in known:
                known[name] = self._takes_connection_away(expression, here)
            return known[name]

        for call, (cls, me) in self._calls.items():
            if _within(call, factories, parents):
                continue  # the factory's own construction, which the move rewrites
            if isinstance(call.func, cst.Name):
                made = f"`{call.func.value}`"
                if not takes_connection_away(call.func):
                    continue
            else:  # `super().__init__(conn)` in a method of `cls`
                if not any(takes_connection_away(base.value) for base in cls.bases if base.keyword is None):
                    continue
                made = f"`{cls.name.value}`'s base"
            self._construction(call, made, me, parents)

    def _construction(self, call: cst.Call, made: str, me: str | None, parents) -> None:
        import libcst as cst

        from acp_migrate.cst.names import mentions

        message = f"{_shown(self.context, call)}: from SDK 0.7 {made} takes its connection in `on_connect(conn)`"
        small = parents.get(call)
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and small.value is call:
            receiver = small.targets[0].target
        elif isinstance(small, cst.AnnAssign) and small.value is call:
            receiver = small.target
        elif isinstance(small, cst.Expr) and isinstance(call.func, cst.Attribute):
            receiver = cst.Name(me)  # `super().__init__(conn)`: this very object
        else:
            receiver = None
        statement = parents.get(small)
        arg = None if call.args[0].star else call.args[0].value
        root = receiver.value if isinstance(receiver, cst.Attribute) else receiver
        if (
            arg is None
            or not isinstance(root, cst.Name)
            or mentions(arg).get(root.value)  # `conn = C(conn)`: the name changes meaning
            or not isinstance(statement, cst.SimpleStatementLine)
            or len(statement.body) != 1
        ):
            why = "this call raises TypeError then: make the object without it, then call its `on_connect(conn)`"
            self.context.report(Report(call, self.code, f"{message}; {why}", fixable=False))
            return
        code = self.context.module.code_for_node
        connect = cst.parse_statement(
            f"{code(receiver)}.on_connect({code(arg)})\n", config=self.context.module.config_for_parsing
        )
        with self.context.fix(Report(call, self.code, message, fixable=True)):
            self.context.replace(call, call.with_changes(args=[]))
            self.context.insert_after(statement, [connect])

    def _takes_connection_away(self, expression: cst.BaseExpression, here: Module) -> bool:
        """Whether the class `expression` names (this module's or another of the project)
        has its `__init__` from a class whose factory moves it to `on_connect`."""
        from acp_migrate.rules.shared.project_classes import class_of, lineage

        found = class_of(self.context, expression, here)
        if found is None:
            return False
        for known in lineage(self.context, *found):
            if known is None:
                return False
            cls, module = known
            if "__init__" in _methods(cls):
                return cls.name.value in self._moved_in(module)
        return False

    def _moved_in(self, module: Module) -> frozenset[str]:
        """The classes of `module` whose `__init__` its factories move (this one's: as found)."""
        from acp_migrate.cst.walk import walk
        from acp_migrate.engine.analysis.traversal import RuleDispatcher
        from acp_migrate.rules.context import FileContext

        if module.identity is None:
            return frozenset(self.moved)
        if module.identity not in self._moved_elsewhere:
            context = FileContext(
                module.tree, self.context.settings, modules=self.context.modules, path=module.identity
            )
            rule = ConnectionFactory(context, constructions=False)
            walk(module.tree, RuleDispatcher(context, [rule]))
            self._moved_elsewhere[module.identity] = frozenset(rule.moved)
        return self._moved_elsewhere[module.identity]

    def _plan_client(self, node: cst.Call):
        """The edits making the client's connection with `connect_to_agent` (registered
        when called) and the class whose `__init__` they move (None: none), or CannotMove."""
        from functools import partial

        import libcst as cst

        from acp_migrate.cst.names import mentions

        context = self.context
        factory = node.args[0].value
        made = _forwarded_class(factory)
        if made is not None:
            cls = self._module_class(made, "connect it with `connect_to_agent`")
            init, stores = _connection_stores(cls)
            retyped = self._retyped(init, CLIENT_CONNECTIONS, "Agent")
            move_init = partial(_move_to_on_connect, context, cls, init, stores, retyped)
            client = cst.parse_expression(f"{made}()")
        elif (
            isinstance(factory, cst.Lambda)
            and (parameter := _lambda_parameter(factory)) is not None
            and not mentions(factory.body).get(parameter)
        ):
            move_init = None
            client = factory.body  # `lambda _agent: client`: the client itself
        else:
            raise CannotMove(
                "the factory does more than make the client from the connection: decide what `on_connect(conn)` does"
            )
        connected = node.with_changes(
            func=cst.Name("connect_to_agent"), args=[node.args[0].with_changes(value=client), *node.args[1:]]
        )
        imported = _imported_from_acp(context.module, "ClientSideConnection")

        def edits() -> None:
            if move_init is not None:
                move_init()
            context.replace(node, connected)
            context.add_import("acp", "connect_to_agent")
            if imported is not None:
                # `from acp import ClientSideConnection` warns from 0.7, `acp.core`'s does not: a
                # mention left (an annotation) keeps it, else nothing names it and it goes
                context.remove(imported)
                context.add_import("acp.core", "ClientSideConnection")

        return edits, made if move_init is not None else None

    def _retyped(self, init: cst.FunctionDef, connections: frozenset[str], protocol: str) -> str | None:
        """`protocol` (of `acp.interfaces`) where the connection `__init__` takes is annotated
        as one of `connections` and the name is free for it, else None."""
        annotation = init.params.params[1].annotation
        bound = self.context.imports.bindings.get(protocol)
        free = bound in (None, f"acp.interfaces.{protocol}") and protocol not in self.context.defined_classes
        typed = annotation is not None and self.context.resolve(annotation.annotation) in connections
        return protocol if free and typed else None

    def _module_class(self, name: str, serve: str) -> cst.ClassDef:
        """This module's class `name`, or CannotMove saying how to `serve` it instead."""
        import libcst as cst

        module = self.context.module
        cls = next((s for s in module.body if isinstance(s, cst.ClassDef) and s.name.value == name), None)
        if cls is None:
            raise CannotMove(f"`{name}` is not defined in this module: give it `on_connect(conn)` and {serve}")
        return cls

    def _plan(self, node: cst.Call):
        """The edits moving the factory (registered when called) and the class whose
        `__init__` they move, or CannotMove."""
        import libcst as cst

        from acp_migrate.cst.names import mentions as mentions_of

        context = self.context
        made = _forwarded_class(node.args[0].value)
        if made is None:
            raise CannotMove(
                "the factory does more than make the agent from the connection: decide what `on_connect(conn)` does"
            )
        cls = self._module_class(made, "serve it with `run_agent`")
        init, stores = _connection_stores(cls)
        function, statement = context.function, context.statements[-1] if context.statements else None
        if function is None or function.asynchronous is None or not isinstance(statement, cst.SimpleStatementLine):
            raise CannotMove("not a statement of an `async` function: serve the agent with `await run_agent(...)`")
        small = statement.body[0] if len(statement.body) == 1 else None
        kept = _kept_name(small, node)
        body = list(function.body.body)
        if statement not in body:
            raise CannotMove("inside a block: serve the agent with `await run_agent(...)`")
        mentions = context.mentions_in(function)
        dels = [s for s in body if _deletes(s, kept)] if kept else []
        inside = mentions_of(node).get(kept, 0) if kept else 0  # `lambda conn: ...` names it too
        if kept is not None and mentions.get(kept, 0) != 1 + len(dels) + inside:
            raise CannotMove(f"the connection `{kept}` is used: reach it through the agent's `on_connect`")
        streams = [a.value for a in node.args[1:]]
        opened = _opened_streams(body, streams, mentions, context)
        after = body[body.index(statement) + 1] if body.index(statement) + 1 < len(body) else None
        forever = after if after is not None and context.code(after) == FOREVER else None
        arguments = "" if opened is not None else "".join(f", {context.module.code_for_node(s)}" for s in streams)
        served = cst.parse_statement(
            f"await run_agent({made}(){arguments})\n", config=context.module.config_for_parsing
        )

        retyped = self._retyped(init, CONNECTIONS, "Client")

        def edits() -> None:
            _move_to_on_connect(context, cls, init, stores, retyped)
            context.replace(statement, served.with_changes(leading_lines=statement.leading_lines))
            for gone in (*dels, *filter(None, (opened, forever))):
                context.remove(gone)
            context.add_import("acp", "run_agent")

        return edits, made


def _shown(context, node: cst.Call) -> str:
    return f"`{context.code(node, 60)}`"


def _move_to_on_connect(
    context, cls: cst.ClassDef, init: cst.FunctionDef, stores: list[cst.BaseStatement], retyped: str | None
) -> None:
    """`__init__`'s lines storing the connection move to `on_connect(self, conn)`
    (`retyped`: the protocol of `acp.interfaces` annotating the connection there)."""
    import libcst as cst

    # The class holds no trigger: the walk may have skipped it, so the path down to the
    # edited name is given (the edits are applied along known parents).
    context.parents.update({cls.body: cls, init: cls.body, init.name: init, init.params: init, init.body: init})
    if retyped:  # `from acp import AgentSideConnection` warns from 0.12: on_connect is handed a Client
        context.add_import("acp.interfaces", retyped)
    if len(stores) == len(init.body.body):  # `__init__` only stored the connection: it is `on_connect` now
        context.replace(init.name, cst.Name("on_connect"))
        if retyped:
            connection = init.params.params[1]
            annotation = connection.annotation
            context.parents.update({connection: init.params, annotation: connection})
            context.parents[annotation.annotation] = annotation
            context.replace(annotation.annotation, cst.Name(retyped))
    else:  # the stores move to `on_connect`, the rest stays in `__init__`
        _split(context, init, stores, retyped)


def _imported_from_acp(module: cst.Module, name: str) -> cst.CSTNode | None:
    """The `name` of a top-level `from acp import ..., name, ...`, not renamed (the whole
    line where it is the only name)."""
    import libcst as cst

    from acp_migrate.cst.names import dotted_name

    for statement in module.body:
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) else None
        if isinstance(small, cst.ImportFrom) and not small.relative and dotted_name(small.module) == "acp":
            if isinstance(small.names, cst.ImportStar):
                return None
            for alias in small.names:
                if alias.asname is None and dotted_name(alias.name) == name:
                    return statement if len(small.names) == 1 else alias
    return None


def _lambda_parameter(factory: cst.Lambda) -> str | None:
    params = factory.params
    return params.params[0].name.value if len(params.params) == 1 and not params.star_kwarg else None


def _forwarded_class(factory: cst.BaseExpression) -> str | None:
    """`C` for `lambda conn: C(conn)` (or `C(conn=conn)`) and for `C` itself, else None."""
    import libcst as cst

    if isinstance(factory, cst.Name):
        return factory.value
    if not isinstance(factory, cst.Lambda) or len(factory.params.params) != 1:
        return None
    parameter = factory.params.params[0].name.value
    made = factory.body
    if not isinstance(made, cst.Call) or not isinstance(made.func, cst.Name) or len(made.args) != 1:
        return None
    arg = made.args[0]
    forwards = isinstance(arg.value, cst.Name) and arg.value.value == parameter and not arg.star
    return made.func.value if forwards else None


def _connection_stores(cls: cst.ClassDef) -> tuple[cst.FunctionDef, list[cst.BaseStatement]]:
    """The class's `__init__(self, conn)` and its lines storing `conn` on `self`; the
    other lines must not mention `conn`."""
    import libcst as cst

    from acp_migrate.cst.names import mentions

    init = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
    if init is None:
        raise CannotMove(f"`{cls.name.value}` has no `__init__(self, conn)`: give it `on_connect(conn)`")
    params = init.params
    if len(params.params) != 2 or params.star_kwarg or isinstance(params.star_arg, cst.Param) or params.kwonly_params:
        raise CannotMove(
            f"`{cls.name.value}.__init__` takes more than the connection: split it into `on_connect(conn)`"
        )
    me, conn = params.params[0].name.value, params.params[1].name.value
    stores = []
    for line in init.body.body:
        small = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
        target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else None
        if (
            isinstance(target, cst.Attribute)
            and isinstance(target.value, cst.Name)
            and target.value.value == me
            and isinstance(small.value, cst.Name)
            and small.value.value == conn
        ):
            stores.append(line)
        elif mentions(line).get(conn):
            raise CannotMove(
                f"`{cls.name.value}.__init__` uses the connection beyond storing it: move that to `on_connect(conn)`"
            )
    if not stores:
        raise CannotMove(f"`{cls.name.value}.__init__` does not keep the connection: give it `on_connect(conn)`")
    return init, stores


def _kept_name(small: cst.BaseSmallStatement | None, node: cst.Call) -> str | None:
    """The name the connection is assigned to (None: a bare expression statement)."""
    import libcst as cst

    if isinstance(small, cst.Expr) and small.value is node:
        return None
    if (
        isinstance(small, cst.Assign)
        and small.value is node
        and len(small.targets) == 1
        and isinstance(small.targets[0].target, cst.Name)
    ):
        return small.targets[0].target.value
    raise CannotMove("the connection is used in an expression: serve the agent with `await run_agent(...)`")


def _deletes(statement: cst.BaseStatement, name: str | None) -> bool:
    import libcst as cst

    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return False
    small = statement.body[0]
    return isinstance(small, cst.Del) and isinstance(small.target, cst.Name) and small.target.value == name


def _opened_streams(body, streams, mentions, context) -> cst.SimpleStatementLine | None:
    """The `reader, writer = await stdio_streams()` line the streams come from and only
    feed the connection (`run_agent` opens them itself), else None."""
    import libcst as cst

    names = [s.value for s in streams if isinstance(s, cst.Name)]
    if len(names) != 2 or len(streams) != 2 or any(mentions.get(name, 0) != 2 for name in names):
        return None
    for statement in body:
        small = (
            statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
        )
        if not isinstance(small, cst.Assign) or not isinstance(small.value, cst.Await):
            continue
        call = small.value.expression
        target = small.targets[0].target if len(small.targets) == 1 else None
        bound = (
            [e.value.value for e in target.elements if isinstance(e.value, cst.Name)]
            if isinstance(target, cst.Tuple)
            else []
        )
        if isinstance(call, cst.Call) and context.resolve(call.func) in STREAMS and sorted(bound) == sorted(names):
            return statement
    return None


def _split(context, init: cst.FunctionDef, stores: list[cst.BaseStatement], retyped: str | None) -> None:
    """`__init__(self)` keeping the lines but `stores`, and `on_connect(self, conn)` after
    it holding them (`retyped`: the connection annotated so)."""
    import libcst as cst

    module = context.module
    me = init.params.params[0].name.value
    lines = "".join(module.code_for_node(line.with_changes(leading_lines=[])) for line in stores)
    unit = module.default_indent
    # the parameter as written: its annotation kept, but a connection's
    connection = init.params.params[1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    if retyped:
        connection = connection.with_changes(
            annotation=connection.annotation.with_changes(annotation=cst.Name(retyped))
        )
    on_connect = cst.parse_statement(
        f"def on_connect({me}, {module.code_for_node(connection)}) -> None:\n"
        + "".join(unit + line + "\n" for line in lines.splitlines()),
        config=module.config_for_parsing,
    )
    context.replace(
        init.params,
        init.params.with_changes(params=[init.params.params[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)]),
    )
    for line in stores:
        context.parents.setdefault(line, init.body)
        context.remove(line)
    context.insert_after(init, [on_connect.with_changes(leading_lines=[cst.EmptyLine(indent=False)])])


def _within(node: cst.CSTNode, ancestors: set[cst.CSTNode], parents: dict[cst.CSTNode, cst.CSTNode]) -> bool:
    while node is not None and ancestors:
        if node in ancestors:
            return True
        node = parents.get(node)
    return False


def _is_super_init(func: cst.BaseExpression) -> bool:
    import libcst as cst

    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "__init__"
        and isinstance(func.value, cst.Call)
        and isinstance(func.value.func, cst.Name)
        and func.value.func.value == "super"
        and not func.value.args
    )


def _methods(cls: cst.ClassDef) -> set[str]:
    import libcst as cst

    return {s.name.value for s in getattr(cls.body, "body", ()) if isinstance(s, cst.FunctionDef)}
