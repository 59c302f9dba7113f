"""Whether the agent factories of a module hand the agent the connection that serves it.

SDK 0.4-0.6 build the agent with `AgentSideConnection(factory, writer, reader)`, which
calls `factory(conn)`; the rewire binds the advertiser to the attribute the agent keeps
its connection in. A wrapped factory (`traced(lambda conn: Agent(conn))`, `@traced` on
a factory function) may give the agent something else: a proxy of the connection (the
advertiser then fails to bind, and `initialize` with it), or an agent made for an
earlier connection (the advertiser watches that one, and no later session gets its
commands). A wrapper is proven from its code in the project: a function whose inner
function (or a class whose `__call__`) calls the factory with its own argument (or
`*args, **kwargs`), unchanged, and returns what that call returns, doing nothing else
with either (logging, `functools.wraps`, a `try` around the call are fine); or such a
function that a function of the project returns (`traced("agent")`). The factory itself, a
lambda or a function of the project, must hand its argument itself to the call making
the agent and return it (`lambda conn: Agent(Tracing(conn))` is refused).
`functools.partial(F, ...)` calls `F` with the connection; a name is followed to its
definition or the values assigned to it. Any other wrapper, or one whose code is not in
the project, refuses the rewire (CannotRewire). Not a rule: the rewire asks it.

The factory may be in another module than the agent class (`server.py` serving the
`agent.py` agent): the project decision reads every file naming `AgentSideConnection`
(`gather_factories`, ACP005's `gathers`), also outside a one-file run, and the rewire of
the class refuses when one of them makes it through an unproven factory. A class no file
of the project makes (a factory the project does not hold) is migrated as before.
"""

from __future__ import annotations

import ast
import os

import libcst as cst

from acp_migrate.cst.names import last_part, mentions
from acp_migrate.cst.walk import walk
from acp_migrate.rules.context import FileContext, all_params
from acp_migrate.rules.shared.list_owner import CannotRewire, methods_of, self_name
from acp_migrate.rules.shared.project_classes import Module, definition_of, lineage
from acp_migrate.rules.shared.syntax import assignment_targets, target_names

CONNECTION_CLASS = "AgentSideConnection"
FACTORY_KEYWORD = "to_agent"  # SDK 0.4-0.6's name for the factory parameter
MAX_FOLLOWED = 6  # wrappers and names followed into a factory
MAX_READ = 50  # expressions and bodies read for the agent classes a factory makes


def check_agent_factories(context: FileContext) -> None:
    """Raise CannotRewire when an `AgentSideConnection(...)` of the module is given a
    factory wrapped in a way not proven to hand the agent its connection."""
    for factory in _factories(context):
        _check_factory(context, factory)


def check_factories_elsewhere(context: FileContext, agents: list[cst.ClassDef]) -> None:
    """Raise CannotRewire when another file of the project gives `AgentSideConnection`
    a factory making one of `agents` (classes of this module), or a subclass, not proven
    to hand it its connection (`gather_factories`, read there by the project decision). A class no file
    makes is taken as made with its connection, as before."""
    if context.path is None:
        return
    made_here = {
        _agent_key(os.path.abspath(context.path), name)
        for name, cls in Module.of(context).classes.items()
        if any(known is not None and known[0] in agents for known in lineage(context, cls))
    }
    for fact in context.gathered():
        if fact.key in made_here and fact.text:
            raise CannotRewire(f"{fact.place} makes the agent: {fact.text}")


def may_make_agents_elsewhere(tree: ast.Module) -> bool:
    """On CPython's tree of a module naming `AgentSideConnection`: whether a factory it
    gives one may make a class of another module (what `gather_factories` looks for, at
    a LibCST parse's cost), followed as it follows them: into this module's functions,
    the values its names are assigned and its classes' bases. Not when all a factory
    reaches is parameters, builtins and this module's classes made of nothing imported
    (a test's `lambda _conn: TestAgent()`, an SDK's own `AgentSideConnection(to_agent,
    ...)`); an import, an attribute of `self` or a name bound otherwise may."""
    imported: set[str] = set()
    functions: dict[str, list[ast.AST]] = {}
    values: dict[str, list[ast.AST]] = {}
    classes: dict[str, ast.ClassDef] = {}
    params: set[str] = set()
    stored: set[str] = set()  # every name bound by a store: those not assigned are unknown
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imported.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions.setdefault(node.name, []).extend(node.body)
        elif isinstance(node, ast.ClassDef):
            classes[node.name] = node
        elif isinstance(node, ast.arg):
            params.add(node.arg)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    values.setdefault(target.id, []).append(node.value)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stored.add(node.id)

    def reaches(expression: ast.AST, seen: set[str]) -> bool:
        for node in ast.walk(expression):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in params:
                return True  # `self.make_agent`: a method, followed by its definition
            if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)) or node.id in seen:
                continue
            name = node.id
            seen.add(name)
            if name in imported or name in stored and name not in values:
                return True
            followed = [*functions.get(name, ()), *values.get(name, ())]
            if name in classes:
                followed += classes[name].bases
            if any(reaches(part, seen) for part in followed):
                return True
        return False

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if (func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)) != CONNECTION_CLASS:
            continue
        given = [arg for arg in node.args[:1] if not isinstance(arg, ast.Starred)]
        given += [keyword.value for keyword in node.keywords if keyword.arg == FACTORY_KEYWORD]
        if any(reaches(factory, set()) for factory in given):
            return True
    return False


def gather_factories(context: FileContext) -> list[tuple[cst.CSTNode, str, str]]:
    """For each factory this module gives `AgentSideConnection`, each class of another
    module of the project it makes: (the factory, the class's key, why the factory is
    not proven, or "" when it is)."""
    found = []
    for factory in _factories(context):
        try:
            _check_factory(context, factory)
            verdict = ""
        except CannotRewire as why:
            verdict = str(why)
        found += [(factory, key, verdict) for key in sorted(_agents_made(context, factory))]
    return found


def _agent_key(path: str, name: str) -> str:
    return f"{os.path.normpath(path)}:{name}"


def _factories(context: FileContext) -> list[cst.BaseExpression]:
    return [factory for call in _connection_calls(context) if (factory := _factory_of(call)) is not None]


def _check_factory(context: FileContext, factory: cst.BaseExpression) -> None:
    factories = [factory]
    seen: set[cst.CSTNode] = set()
    while factories:
        factory = factories.pop()
        if factory not in seen:
            seen.add(factory)
            factories.extend(_wrapped(context, factory))


def _agents_made(context: FileContext, factory: cst.BaseExpression) -> set[str]:
    """The classes of other modules of the project that `factory` names, followed into
    the functions it names and the values of the names it uses (MAX_READ nodes)."""
    keys: set[str] = set()
    pending: list[tuple[cst.CSTNode, Module]] = [(factory, Module.of(context))]
    seen: set[cst.CSTNode] = set()
    while pending and len(seen) < MAX_READ:
        node, module = pending.pop()
        if node in seen:
            continue
        seen.add(node)
        for name in _names_in(node):
            found = definition_of(context, name, module)
            if found is None:
                if isinstance(name, cst.Name) and module.identity is None:
                    pending += [(value, module) for value in _assigned(context, name.value)]
            elif isinstance(found[0], cst.FunctionDef):
                pending.append((found[0].body, found[1]))
            elif found[1].identity is not None:
                keys.add(_agent_key(found[1].identity, found[0].name.value))
            else:  # a class of this module: the project's classes it is made of, elsewhere
                keys.update(
                    _agent_key(known[1].identity, known[0].name.value)
                    for known in lineage(context, found[0])
                    if known is not None and known[1].identity is not None
                )
    return keys


def _names_in(node: cst.CSTNode) -> list[cst.Name | cst.Attribute]:
    names: list[cst.Name | cst.Attribute] = []

    class Names(cst.CSTVisitor):
        def visit_Name(self, found: cst.Name) -> None:
            names.append(found)

        def visit_Attribute(self, found: cst.Attribute) -> None:
            names.append(found)

    walk(node, Names())
    return names


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


def _wrapped(context: FileContext, factory: cst.BaseExpression) -> list[cst.BaseExpression]:
    """What `factory` hands the connection to, once its wrappers are proven: the
    wrapped factory, the values a name is assigned; nothing for a lambda, a class or
    a function (the connection goes straight in)."""
    if isinstance(factory, cst.Lambda):
        params = all_params(factory.params)
        conn = params[0].name.value if len(params) == 1 and not params[0].star else None
        if conn is None or not _hands_on(factory.body, [("", conn)]) or mentions(factory.body)[conn] != 1:
            raise _refused(context, factory, "does more than hand the agent its connection")
        return []
    if isinstance(factory, (cst.Name, cst.Attribute)):
        found = definition_of(context, factory, Module.of(context))
        if found is None:
            return _assigned(context, factory.value) if isinstance(factory, cst.Name) else []
        definition, module = found
        if isinstance(definition, cst.FunctionDef):
            for decorator in definition.decorators:
                _check_pass_through(context, decorator.decorator, factory, module)
            params = all_params(definition.params)[:1]
            if not params or not _calls_and_returns(definition, params):
                raise _refused(context, factory, "does more than make the agent with its connection and return it")
        return []
    if not isinstance(factory, cst.Call):
        return []
    positional = [arg for arg in factory.args if arg.keyword is None and not arg.star]
    if _is_partial(context, factory):
        return [positional[0].value]
    if not any(_is_factory(context, arg.value) for arg in positional):
        return []  # the agent itself (SDK 0.7+: `AgentSideConnection(Agent(), ...)`): no factory
    callee = definition_of(context, factory.func, Module.of(context))
    if callee is not None and isinstance(callee[0], cst.ClassDef) and "__call__" not in methods_of(callee[0]):
        return []  # the agent, given a class or function
    if len(factory.args) != 1 or not positional:
        raise _unproven(context, factory.func, factory)
    _check_pass_through(context, factory.func, factory, Module.of(context))
    return [positional[0].value]


def _is_partial(context: FileContext, call: cst.Call) -> bool:
    first = call.args[0] if call.args else None
    return (
        context.resolve(call.func) == "functools.partial"
        and first is not None
        and first.keyword is None
        and not first.star
    )


def _is_factory(context: FileContext, expression: cst.BaseExpression, depth: int = 0) -> bool:
    """A lambda, a class or function of the project, or one wrapped (or named) so: what
    a wrapper is given. A value the agent is built from is none of these."""
    if isinstance(expression, cst.Lambda):
        return True
    if depth > MAX_FOLLOWED:
        return False
    if isinstance(expression, cst.Call):
        wrapped = [arg.value for arg in expression.args if arg.keyword is None and not arg.star]
        return _is_partial(context, expression) or any(_is_factory(context, arg, depth + 1) for arg in wrapped)
    if isinstance(expression, (cst.Name, cst.Attribute)) and definition_of(context, expression, Module.of(context)):
        return True
    return isinstance(expression, cst.Name) and any(
        _is_factory(context, value, depth + 1) for value in _assigned(context, expression.value)
    )


def _assigned(context: FileContext, name: str) -> list[cst.BaseExpression]:
    """The values the module assigns `name`, in order."""
    return context.shared(_assignments).get(name, [])


def _assignments(context: FileContext) -> dict[str, list[cst.BaseExpression]]:
    """Each name the module assigns -> its values: one walk a file, however many names are asked."""
    values: dict[str, list[cst.BaseExpression]] = {}

    class Assignments(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            names = {t.target.value for t in node.targets if isinstance(t.target, cst.Name)}
            for name in names:
                values.setdefault(name, []).append(node.value)

    walk(context.module, Assignments())
    return values


def _check_pass_through(
    context: FileContext, wrapper: cst.BaseExpression, factory: cst.CSTNode, module: Module
) -> None:
    """`wrapper`, named in `module`, is a function or class of the project that passes
    the connection through; `factory`: what this file gives `AgentSideConnection`."""
    made = isinstance(wrapper, cst.Call)  # `traced("agent")`: a function returning the decorator
    found = definition_of(context, wrapper.func if isinstance(wrapper, cst.Call) else wrapper, module)
    if found is None:
        raise _unproven(context, wrapper, factory, "its code is not in the project")
    definition, home = found
    if made:
        definition = _returned_function(definition) if isinstance(definition, cst.FunctionDef) else None
    if definition is None:
        proven = False
    elif isinstance(definition, cst.FunctionDef):
        proven = _function_passes_through(home, definition)
    else:
        proven = _class_passes_through(home, definition)
    if not proven:
        raise _unproven(context, wrapper, factory)


def _unproven(context: FileContext, wrapper: cst.BaseExpression, factory: cst.CSTNode, why: str = "") -> CannotRewire:
    why = why or "it does more than call the factory with the connection and return the agent"
    what = f"is wrapped by `{context.code(wrapper)}`, whose effect on the connection cannot be proven ({why})"
    return _refused(context, factory, what)


def _refused(context: FileContext, factory: cst.CSTNode, what: str) -> CannotRewire:
    """Named by its code: `check` reads a shorter source (engine/analysis/hollow.py), whose
    line numbers are not the file's."""
    return CannotRewire(
        f"the agent factory `{context.code(factory)}` {what}: check that the shim is bound to the connection"
        " that serves the session"
    )


def _function_passes_through(module: Module, wrapper: cst.FunctionDef) -> bool:
    """`def traced(factory): def make(conn): ... return factory(conn) ...; return make`:
    besides the inner function and its return, nothing mentions the factory."""
    params = all_params(wrapper.params)
    make = _returned_function(wrapper)
    if make is None or len(params) != 1:
        return False
    factory = params[0].name.value
    wraps = [d for d in make.decorators if _is_functools_call(module, d.decorator, "wraps", factory)]
    if len(wraps) != len(make.decorators):
        return False
    calls = _calls_and_returns(make, all_params(make.params), factory)
    return bool(calls) and mentions(wrapper.body)[factory] == len(wraps) + calls


def _returned_function(outer: cst.FunctionDef) -> cst.FunctionDef | None:
    """The one function `outer` defines and ends returning, when nothing else in it
    mentions that function (`outer` undecorated, not async)."""
    body = outer.body
    if outer.decorators or outer.asynchronous or not isinstance(body, cst.IndentedBlock):
        return None
    inner = [s for s in body.body if isinstance(s, cst.FunctionDef)]
    if len(inner) != 1 or _returned_name(body.body[-1]) != inner[0].name.value:
        return None
    return inner[0] if mentions(body)[inner[0].name.value] == 1 else None


def _class_passes_through(module: Module, wrapper: cst.ClassDef) -> bool:
    """`class traced:` whose `__init__(self, factory)` stores the factory in one attribute
    and whose `__call__(self, conn)` calls it: nothing else in the class uses that
    attribute (or a name like it)."""
    methods = methods_of(wrapper)
    init, call = methods.get("__init__"), methods.get("__call__")
    if wrapper.decorators or wrapper.bases or wrapper.keywords or init is None or call is None:
        return False
    init_params, call_params = all_params(init.params), all_params(call.params)
    me = self_name(init)
    if me is None or self_name(call) is None or len(init_params) != 2:
        return False
    factory = init_params[1].name.value
    stored = [
        small.targets[0].target.attr.value
        for line in init.body.body
        if isinstance(line, cst.SimpleStatementLine)
        for small in line.body
        if isinstance(small, cst.Assign)
        and len(small.targets) == 1
        and _code(small.targets[0].target).startswith(f"{me}.")
        and _code(small.value) == factory
    ]
    updates = sum(_is_functools_call(module, node, "update_wrapper", me, factory) for node in _calls_in(init.body))
    if len(stored) != 1 or mentions(init.body)[factory] != 1 + updates:
        return False
    calls = _calls_and_returns(call, call_params[1:], f"{self_name(call)}.{stored[0]}")
    return bool(calls) and _attribute_uses(wrapper, stored[0]) == 1 + calls


def _returned_name(statement: cst.BaseStatement) -> str | None:
    if isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Return):
        value = statement.body[0].value
        return value.value if isinstance(value, cst.Name) else None
    return None


def _is_functools_call(module: Module, node: cst.BaseExpression, function: str, *names: str) -> bool:
    """`functools.<function>(<names>)`, the arguments plain names."""
    return (
        isinstance(node, cst.Call)
        and module.imports.resolve(node.func) == f"functools.{function}"
        and [_code(arg.value) if arg.keyword is None and not arg.star else None for arg in node.args] == list(names)
    )


def _calls_in(node: cst.CSTNode) -> list[cst.Call]:
    calls: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            calls.append(call)

    walk(node, Calls())
    return calls


def _attribute_uses(node: cst.CSTNode, attribute: str) -> int:
    uses = 0

    class Uses(cst.CSTVisitor):
        def visit_Attribute(self, found: cst.Attribute) -> None:
            nonlocal uses
            uses += found.attr.value == attribute

    walk(node, Uses())
    return uses


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _calls_and_returns(make: cst.FunctionDef, params: list[cst.Param], factory: str | None = None) -> int:
    """How many `factory(conn)` calls `make` makes, 0 unless they are all it does with
    its parameters `params` (`conn`, or `*args, **kwargs` passed on as they came), each is
    returned or assigned to a name used only by `return`, and every `return` returns one
    of them. `factory`: the callee's code (`factory`, `self.factory`); None: any call
    given `conn` itself (the agent's class, for a factory, which may also use the agent
    it makes, but not bind its name to anything else)."""
    forwarded = [(param.star if isinstance(param.star, str) else "", param.name.value) for param in params]
    stars = [star for star, _ in forwarded]
    if stars not in ([""], ["*"], ["*", "**"]) or factory is None and stars != [""]:
        return 0
    if make.asynchronous or not isinstance(make.body, cst.IndentedBlock):
        return 0
    scan = _Scan(factory, forwarded)
    walk(make.body, scan)
    counts = mentions(make.body)
    if scan.other or any(counts[name] != scan.calls for _, name in forwarded):
        return 0
    names = [value.value for value in scan.returned if isinstance(value, cst.Name) and value.value in scan.results]
    if len(names) + scan.returned_calls != len(scan.returned):
        return 0  # a return of something else
    if factory is None:  # the agent may be set up, but it is the one returned
        if set(scan.results) & scan.rebound:
            return 0
    elif any(counts[name] != assigned + names.count(name) for name, assigned in scan.results.items()):
        return 0  # a wrapper using the agent otherwise
    placed = scan.returned_calls + sum(scan.results.values())
    return scan.calls if placed == scan.calls else 0  # else a call's result used otherwise


def _hands_on(node: cst.BaseExpression, forwarded: list[tuple[str, str]], callee: str | None = None) -> bool:
    """`callee(conn)` (or `callee(*args, **kwargs)`): the parameters `forwarded` (star,
    name) passed on as they came; with no callee, any call given `conn` itself."""
    if not isinstance(node, cst.Call):
        return False
    given = [(arg.star, arg.value.value) if isinstance(arg.value, cst.Name) else None for arg in node.args]
    if callee is None:
        return ("", forwarded[0][1]) in given
    return _code(node.func) == callee and all(arg.keyword is None for arg in node.args) and given == forwarded


class _Scan(cst.CSTVisitor):
    """The `factory(conn)` calls of an inner function, what it returns and the names
    it assigns the calls to."""

    def __init__(self, factory: str | None, forwarded: list[tuple[str, str]]) -> None:
        self.factory, self.forwarded = factory, forwarded
        self.calls = 0
        self.returned_calls = 0
        self.returned: list[cst.BaseExpression] = []
        self.results: dict[str, int] = {}  # name -> how many times a call is assigned to it
        self.rebound: set[str] = set()  # names bound to something else, or global
        self.other = False  # a nested function or class (its returns are not ours), a generator

    def is_call(self, node: cst.BaseExpression) -> bool:
        return _hands_on(node, self.forwarded, self.factory)

    def visit_Call(self, node: cst.Call) -> None:
        self.calls += self.is_call(node)

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is None:
            self.other = True
        else:
            self.returned.append(node.value)
            self.returned_calls += self.is_call(node.value)

    def visit_Assign(self, node: cst.Assign) -> None:
        if not self.is_call(node.value):
            self._bound(node)
            return
        target = node.targets[0].target if len(node.targets) == 1 else None
        if isinstance(target, cst.Name):
            self.results[target.value] = self.results.get(target.value, 0) + 1
        else:
            self.other = True

    def _bound(self, node: cst.Assign | cst.AnnAssign | cst.AugAssign) -> None:
        self.rebound.update(name for target in assignment_targets(node) for name in target_names(target))

    visit_AnnAssign = visit_AugAssign = _bound

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self.rebound.update(target_names(node.target))

    def visit_For(self, node: cst.For) -> None:
        self.rebound.update(target_names(node.target))

    def visit_AsName(self, node: cst.AsName) -> None:
        self.rebound.update(target_names(node.name))

    def visit_Global(self, node: cst.Global) -> None:
        self.rebound.update(item.name.value for item in node.names)

    visit_Nonlocal = visit_Global

    def _other(self, node: cst.CSTNode) -> bool:
        self.other = True
        return False

    visit_FunctionDef = visit_ClassDef = visit_Yield = _other
