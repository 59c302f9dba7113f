"""Whether the agent factories of a module hand the agent the connection that serves it.

SDK 0.4-0.6 build the agent with `AgentSideConnection(factory, writer, reader)`, which
calls `factory(conn)`; the rewire binds the advertiser to the attribute the agent keeps
its connection in. A wrapped factory (`traced(lambda conn: Agent(conn))`, `@traced` on
a factory function) may give the agent something else: a proxy of the connection (the
advertiser then fails to bind, and `initialize` with it), or an agent made for an
earlier connection (the advertiser watches that one, and no later session gets its
commands). A wrapper is proven from its code in the module: a function whose inner
function calls the factory with its own argument, unchanged, and returns what that
call returns, doing nothing else with either (logging, `functools.wraps`, a `try`
around the call are fine). `functools.partial(F, ...)` calls `F` with the connection.
Any other wrapper, or one whose code is not in the module, refuses the rewire
(CannotRewire). Not a rule: the rewire asks it.
"""

from __future__ import annotations

import libcst as cst

from acp_migrate.cst.names import last_part, mentions
from acp_migrate.cst.positions import positions_of
from acp_migrate.cst.walk import walk
from acp_migrate.rules.context import FileContext, all_params
from acp_migrate.rules.shared.list_owner import CannotRewire

CONNECTION_CLASS = "AgentSideConnection"
FACTORY_KEYWORD = "to_agent"  # SDK 0.4-0.6's name for the factory parameter


def check_agent_factories(context: FileContext) -> None:
    """Raise CannotRewire when an `AgentSideConnection(...)` of the module is given a
    factory wrapped in a way not proven to hand the agent its connection."""
    for call in _connection_calls(context):
        factory = _factory_of(call)
        while factory is not None:
            factory = _unwrapped(context, factory)


def _connection_calls(context: FileContext) -> list[cst.Call]:
    calls: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if last_part(context.resolve(node.func)) == CONNECTION_CLASS:
                calls.append(node)

    walk(context.module, Calls())
    return calls


def _factory_of(call: cst.Call) -> cst.BaseExpression | None:
    for index, arg in enumerate(call.args):
        if arg.keyword is not None and arg.keyword.value == FACTORY_KEYWORD or arg.keyword is None and index == 0:
            return arg.value if not arg.star else None
    return None


def _unwrapped(context: FileContext, factory: cst.BaseExpression) -> cst.BaseExpression | None:
    """The factory a proven wrapper wraps, None when `factory` wraps nothing."""
    if isinstance(factory, cst.Name):
        definition = _module_function(context, factory.value)
        for decorator in definition.decorators if definition is not None else ():
            _check_pass_through(context, decorator.decorator, decorator)
        return None
    if not isinstance(factory, cst.Call):
        return None  # a lambda, a class: the connection goes straight in
    positional = [arg for arg in factory.args if arg.keyword is None and not arg.star]
    if context.resolve(factory.func) == "functools.partial" and positional and positional[0] is factory.args[0]:
        return positional[0].value
    if len(factory.args) != 1 or not positional:
        raise CannotRewire(_unproven(context, factory.func, factory))
    _check_pass_through(context, factory.func, factory)
    return positional[0].value


def _check_pass_through(context: FileContext, wrapper: cst.BaseExpression, at: cst.CSTNode) -> None:
    definition = _module_function(context, wrapper.value) if isinstance(wrapper, cst.Name) else None
    if definition is None:
        raise CannotRewire(_unproven(context, wrapper, at, "its code is not a function of this module"))
    if not _passes_through(context, definition):
        raise CannotRewire(_unproven(context, wrapper, at))


def _unproven(context: FileContext, wrapper: cst.BaseExpression, at: cst.CSTNode, why: str = "") -> str:
    line = positions_of(context.module, [at])[at].start.line
    why = why or "it does more than call the factory with the connection and return the agent"
    return (
        f"the agent factory (line {line}) is wrapped by `{context.code(wrapper)}`, whose effect on the connection"
        f" cannot be proven ({why}): check that the shim is bound to the connection that serves the session"
    )


def _module_function(context: FileContext, name: str) -> cst.FunctionDef | None:
    found = None
    for statement in context.module.body:
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)) and statement.name.value == name:
            found = statement  # the last definition wins, as at run time
    return found if isinstance(found, cst.FunctionDef) else None


def _passes_through(context: FileContext, wrapper: cst.FunctionDef) -> bool:
    """`def traced(factory): def make(conn): ... return factory(conn) ...; return make`:
    besides the inner function and its return, nothing mentions the factory."""
    params = all_params(wrapper.params)
    body = wrapper.body
    if wrapper.decorators or wrapper.asynchronous or len(params) != 1 or not isinstance(body, cst.IndentedBlock):
        return False
    factory = params[0].name.value
    inner = [s for s in body.body if isinstance(s, cst.FunctionDef)]
    if len(inner) != 1 or _returned_name(body.body[-1]) != inner[0].name.value:
        return False
    make = inner[0]
    wraps = [d for d in make.decorators if _is_wraps_of(context, d.decorator, factory)]
    if len(wraps) != len(make.decorators):
        return False
    counts = mentions(body)
    if counts[make.name.value] != 1 or counts[factory] != len(wraps) + mentions(make.body)[factory]:
        return False
    return _calls_and_returns(make, factory)


def _returned_name(statement: cst.BaseStatement) -> str | None:
    if isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Return):
        value = statement.body[0].value
        return value.value if isinstance(value, cst.Name) else None
    return None


def _is_wraps_of(context: FileContext, decorator: cst.BaseExpression, factory: str) -> bool:
    return (
        isinstance(decorator, cst.Call)
        and context.resolve(decorator.func) == "functools.wraps"
        and len(decorator.args) == 1
        and isinstance(decorator.args[0].value, cst.Name)
        and decorator.args[0].value.value == factory
    )


def _calls_and_returns(make: cst.FunctionDef, factory: str) -> bool:
    """`make(conn)` uses `conn` and `factory` only in `factory(conn)` calls, each returned
    or assigned to a name used only by `return`; every `return` returns one of them."""
    params = all_params(make.params)
    if make.asynchronous or len(params) != 1 or params[0].star:
        return False
    scan = _Scan(factory, params[0].name.value)
    walk(make.body, scan)
    counts = mentions(make.body)
    if scan.other or not scan.calls or counts[scan.conn] != scan.calls or counts[factory] != scan.calls:
        return False
    names = [value.value for value in scan.returned if isinstance(value, cst.Name) and value.value in scan.results]
    if len(names) + scan.returned_calls != len(scan.returned):
        return False  # a return of something else
    if any(counts[name] != assigned + names.count(name) for name, assigned in scan.results.items()):
        return False  # a result used otherwise
    return scan.returned_calls + sum(scan.results.values()) == scan.calls  # no call's result used otherwise


class _Scan(cst.CSTVisitor):
    """The `factory(conn)` calls of an inner function, what it returns and the names
    it assigns the calls to."""

    def __init__(self, factory: str, conn: str) -> None:
        self.factory, self.conn = factory, conn
        self.calls = 0
        self.returned_calls = 0
        self.returned: list[cst.BaseExpression] = []
        self.results: dict[str, int] = {}  # name -> how many times a call is assigned to it
        self.other = False  # a construct that could keep or hand on either

    def is_call(self, node: cst.BaseExpression) -> bool:
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == self.factory):
            return False
        args = node.args
        return (
            len(args) == 1
            and args[0].keyword is None
            and not args[0].star
            and isinstance(args[0].value, cst.Name)
            and args[0].value.value == self.conn
        )

    def visit_Call(self, node: cst.Call) -> None:
        self.calls += self.is_call(node)

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is None:
            self.other = True
        else:
            self.returned.append(node.value)
            self.returned_calls += self.is_call(node.value)

    def visit_Assign(self, node: cst.Assign) -> None:
        if self.is_call(node.value):
            target = node.targets[0].target if len(node.targets) == 1 else None
            if isinstance(target, cst.Name):
                self.results[target.value] = self.results.get(target.value, 0) + 1
            else:
                self.other = True

    def _other(self, node: cst.CSTNode) -> bool:
        self.other = True
        return False

    visit_FunctionDef = visit_ClassDef = visit_Lambda = _other
    visit_Yield = visit_Await = visit_Global = visit_Nonlocal = _other
    visit_NamedExpr = visit_AnnAssign = visit_AugAssign = _other
