"""Move a command list removed from `initialize` into the agent's session setup handlers.

Not a rule: the fix that ACP001-003 removals call (`shared.advertised`) so that no command
a server advertised is lost. The list `E` was advertised for an agent class when it is
in the class's `initialize`, in a method of the class that `initialize` calls directly
(`agent_capabilities=self._capabilities()`: `E` may use `self` but not that method's
locals, as from `initialize`), or in a module-level constant (`CAPS =
AgentCapabilities(slash_commands=SKILLS)`) that the `initialize` of classes of the same
module use, and nothing else in the module does (each such class is rewired). For
each such class it edits the class to use the runtime shim's `CommandAdvertiser`:

- creates it: a dataclass field (`field(default_factory=CommandAdvertiser)`, so
  slots and frozen classes work), else at the end of `__init__`, else in `on_connect`;
- binds it to the connection: in `on_connect(conn)` when there is one, otherwise as
  the first statement of `initialize` (every session setup comes after it), from the
  attribute that holds the connection (a dataclass field annotated with a connection
  type, or a constructor parameter stored on `self`). Never in `__init__`: an SDK
  factory calls it before the connection can send;
- makes every return of every setup handler (`new_session`, `load_session`,
  `resume_session`, `fork_session` and SDK 0.4-0.6's camelCase names, configurable;
  keyword or request-object parameters) return
  `self.command_advertiser.attach(response, always=E)`.

Lists the server's own code sends (`available_commands_update` from any module)
stay as they are: once bound, the advertiser sees every such notification on the
connection, holds it until the session's setup response is out and merges `E`
into it (docs/runtime.md), so neither list replaces the other.

When it cannot do that safely, it says why; `keep_advertised` then leaves a TODO
comment (an ACP005 follow-up).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import libcst as cst

from acp_migrate.cst.layout import is_docstring
from acp_migrate.cst.names import ImportTable, MentionCounter, last_part, mentions
from acp_migrate.cst.walk import walk
from acp_migrate.engine.analysis.imports import FIRST_PARTY, LOCAL
from acp_migrate.engine.analysis.vendor import VENDORED_FILE, VENDORED_MODULE, is_vendored, vendored_source
from acp_migrate.rules.context import FileContext, all_params
from acp_migrate.rules.shared import ADVERTISER_CLASS
from acp_migrate.settings import VENDORED

ADVERTISER = "command_advertiser"
CONNECTION_HOOK = "on_connect"
MAX_INLINE_CALL = 72  # longer generated calls get one argument per line
# Types an attribute holding the agent's connection is annotated with, in the SDK
# releases and their forks (AgentPool annotates it with the `Client` protocol).
CONNECTION_TYPES = frozenset({"AgentSideConnection", "Client", "Connection"})
CONNECTION_NAMES = frozenset({"conn", "connection", "client"})
# Class decorators that build `__init__` from declared fields -> (module, its field
# function, the keyword naming a default factory). attrs' `define` makes slots classes.
FIELD_CLASSES = {
    "dataclasses.dataclass": ("dataclasses", "field", "default_factory"),
    **{f"{m}.{d}": (m, "field", "factory") for m in ("attrs", "attr") for d in ("define", "mutable", "frozen")},
    "attr.s": ("attr", "ib", "factory"),
    "attr.attrs": ("attr", "ib", "factory"),
}
SLOTS_BY_DEFAULT = frozenset(f"{m}.{d}" for m in ("attrs", "attr") for d in ("define", "mutable", "frozen"))

_NO_SPACE = cst.SimpleWhitespace("")
_KEYWORD_EQUAL = cst.AssignEqual(whitespace_before=_NO_SPACE, whitespace_after=_NO_SPACE)


class CannotRewire(Exception):
    """Why the list cannot be moved; the text completes "the list could not be moved: ..."."""


NOT_INITIALIZE = "it is not in an agent class's `initialize` method"


def rewire(context: FileContext, origin: cst.BaseExpression) -> None:
    """Move `origin` (the removed list's expression) into the setup handlers of the
    agent class (or classes) it was advertised for, or raise CannotRewire."""
    targets = _agent_classes(context)
    _check_unconditional(context)
    _check_movable(origin, targets[0][2])
    # Every class's edits are computed before any is registered: a CannotRewire for one
    # leaves the tree alone.
    rewired = dict(context.rewired)
    plans = []
    for agent, initialize, _ in targets:
        plan = _plan(context, agent, initialize, origin, rewired)
        if plan is not None:
            rewired[agent] = plan.origin_code
            plans.append(plan)
    runtime = _runtime_import(context) if any(plan.owns_advertiser for plan in plans) else None
    for plan in plans:
        plan.register(context)
    if runtime is not None:
        _add_runtime_import(context, runtime)
    if plans:
        module = runtime[0] if runtime is not None else context.settings.runtime_import
        context.imports.bindings.setdefault(ADVERTISER_CLASS, f"{module}.{ADVERTISER_CLASS}")


# -- whose list it is -----------------------------------------------------------------


# Nodes under which code runs only sometimes: a list advertised there cannot become
# a list every session gets (the condition has to move with it, which needs a person).
_CONDITIONAL = (
    cst.If, cst.Else, cst.For, cst.While, cst.Match, cst.ExceptHandler, cst.IfExp,
    cst.BooleanOperation, cst.CompFor, cst.Lambda,
)


def _check_unconditional(context: FileContext) -> None:
    lineage = context.lineage
    function = context.function
    start = lineage.index(function) + 1 if function is not None and function in lineage else 0
    for node in lineage[start:]:
        if isinstance(node, _CONDITIONAL):
            raise CannotRewire("it is advertised only under a condition (`if`, a loop, `except`, `and`/`or`)")


def _agent_classes(context: FileContext) -> list[tuple[cst.ClassDef, cst.FunctionDef, cst.FunctionDef | None]]:
    """(agent class, its `initialize`, the function whose locals the list may not use)
    for each class the list was advertised for: the class of the `initialize` it is
    in, or of the method it is in when that class's `initialize` calls it directly
    (`self._capabilities()`); for a module-level `CAPS = ...`, every class of the module
    whose `initialize` (or a method it calls) uses `CAPS`."""
    function = context.function
    if function is None:
        return _constant_users(context)
    scopes = context.scopes
    agent = scopes[-2] if len(scopes) >= 2 and scopes[-1] is function else None
    if not isinstance(agent, cst.ClassDef) or not isinstance(agent.body, cst.IndentedBlock):
        raise CannotRewire(NOT_INITIALIZE)
    if function.name.value == "initialize":
        return [(agent, function, function)]
    initialize = _methods(agent).get("initialize")
    if initialize is None or function not in _called_methods(agent, initialize):
        raise CannotRewire(
            f"it is in `{agent.name.value}.{function.name.value}`, which is not `initialize` or a method it calls"
        )
    return [(agent, initialize, function)]


def _methods(agent: cst.ClassDef) -> dict[str, cst.FunctionDef]:
    if not isinstance(agent.body, cst.IndentedBlock):
        return {}
    return {statement.name.value: statement for statement in agent.body.body if isinstance(statement, cst.FunctionDef)}


def _self_name(method: cst.FunctionDef) -> str | None:
    """The name of a plain method's first parameter (`self`); None for static and class methods."""
    if any(_code(d.decorator) in {"staticmethod", "classmethod"} for d in method.decorators):
        return None
    positional = [*method.params.posonly_params, *method.params.params]
    return positional[0].name.value if positional else None


def _called_methods(agent: cst.ClassDef, initialize: cst.FunctionDef) -> list[cst.FunctionDef]:
    """The methods of `agent` that its `initialize` calls directly as `self.<name>(...)`
    (not from a function or lambda nested in it)."""
    me = _self_name(initialize)
    methods = _methods(agent)
    called: list[cst.FunctionDef] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if (
                isinstance(func, cst.Attribute)
                and isinstance(func.value, cst.Name)
                and func.value.value == me
                and func.attr.value in methods
                and methods[func.attr.value] is not initialize
                and methods[func.attr.value] not in called
            ):
                called.append(methods[func.attr.value])

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            return False

    if me is not None:
        walk(initialize.body, Calls())
    return called


def _constant_name(statement: cst.BaseStatement) -> str | None:
    """`NAME` of a module-level `NAME = ...` (or `NAME: T = ...`) line."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    small = statement.body[0]
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        target = small.targets[0].target
    elif isinstance(small, cst.AnnAssign) and small.value is not None:
        target = small.target
    else:
        return None
    return target.value if isinstance(target, cst.Name) else None


def _constant_users(context: FileContext) -> list[tuple[cst.ClassDef, cst.FunctionDef, None]]:
    statement = context.statements[0] if context.statements else None
    name = _constant_name(statement) if not context.scopes and statement in context.module.body else None
    if name is None:
        raise CannotRewire(NOT_INITIALIZE)
    users = []
    for agent in context.module.body:
        if not isinstance(agent, cst.ClassDef):
            continue
        initialize = _methods(agent).get("initialize")
        if initialize is None:
            continue
        if any(mentions(method).get(name) for method in (initialize, *_called_methods(agent, initialize))):
            users.append((agent, initialize, None))
    if not users:
        raise CannotRewire(f"`{name}` is not used by the `initialize` of an agent class in this module")
    # Used anywhere else (another function, `__all__`: another module), removing the
    # list from it would take it from there too.
    elsewhere = mentions(context.module)[name] - mentions(statement)[name] - sum(mentions(a)[name] for a, _, _ in users)
    if elsewhere:
        raise CannotRewire(f"`{name}` is also used outside the agent class's `initialize`")
    return users


# -- one class's edits --------------------------------------------------------------------


class _Plan:
    """The edits rewiring one class (computed before any is registered)."""

    def __init__(self, agent: cst.ClassDef, origin_code: str) -> None:
        self.agent = agent
        self.origin_code = origin_code
        self.wiring = Wiring()
        self.handler_edits: list[_HandlerEdits] = []
        # It creates its own advertiser (not inherited from a class rewired above).
        self.owns_advertiser = True

    def register(self, context: FileContext) -> None:
        context.rewired[self.agent] = self.origin_code
        wiring = self.wiring
        for node, replacement in wiring.replaced:
            context.replace(node, replacement)
        for statement, new in wiring.after:
            context.insert_after(statement, new)
        for statement, new in wiring.before:
            context.insert_before(statement, new)
        for edits in self.handler_edits:
            for node, replacement in edits.replaced:
                context.replace(node, replacement)
            for statement, new in edits.appended:
                context.insert_after(statement, new)


def _plan(
    context: FileContext,
    agent: cst.ClassDef,
    initialize: cst.FunctionDef,
    origin: cst.BaseExpression,
    rewired: dict[cst.ClassDef, str],
) -> _Plan | None:
    """The edits for `agent`, None when it already advertises `origin`. `rewired`:
    the classes rewired so far, this run's plans included."""
    done = rewired.get(agent)
    origin_code = context.code(origin, limit=10_000)
    if done is not None:
        if done != origin_code:
            raise CannotRewire(f"class `{agent.name.value}` already advertises `{context.code(origin)}`")
        return None

    methods = _methods(agent)
    handlers = context.settings.setup_handlers
    kinds = {name: kind for kind in ("new", "load", "resume", "fork") for name in getattr(handlers, kind)}
    setup = [(methods[name], kind) for name, kind in kinds.items() if name in methods]
    present = {kind for _, kind in setup}
    # Handlers the class inherits (from a base here or in another file of the project)
    # get an override that attaches the list to what the base's handler returns.
    inherited_handlers = [
        (found, kind)
        for kind in ("new", "load", "resume", "fork")
        if kind not in present and (found := _inherited_handler(context, agent, getattr(handlers, kind))) is not None
    ]
    if not setup and not inherited_handlers:
        raise CannotRewire(f"class `{agent.name.value}` has no session setup handler")

    inherited = any(
        isinstance(base.value, cst.Name) and base.value.value in {c.name.value for c in rewired}
        for base in agent.bases
    )
    plan = _Plan(agent, origin_code)
    # A subclass of a class rewired above already has the advertiser, bound once.
    wiring = plan.wiring = Wiring() if inherited else _wiring(context, agent, methods, initialize)
    plan.owns_advertiser = not inherited
    plan.handler_edits = [_handler_edits(context, method, kind, origin) for method, kind in setup]
    overrides = [_override(context, owner, method, kind, origin) for (owner, method), kind in inherited_handlers]
    if overrides:
        wiring.after.append((initialize, overrides))
    return plan


# -- checks ---------------------------------------------------------------------------


def _check_movable(origin: cst.BaseExpression, home: cst.FunctionDef | None) -> None:
    """The expression may only use `self` and module-level names: not the parameters
    or locals of `home`, the method it is in (`initialize` or a method it calls)."""
    if home is None:  # a module-level constant: module-level names only
        return
    params = [p.name.value for p in all_params(home.params)]
    me = _self_name(home)
    local_names = set(params[1:] if me is not None else params) | _assigned_names(home)
    counter = MentionCounter()
    walk(origin, counter)
    # A comprehension's or lambda's own variables are the expression's, not `initialize`'s.
    used = sorted((set(counter.counts) - _bound_inside(origin)) & local_names)
    if used:
        raise CannotRewire(f"it uses `{used[0]}`, which only exists inside `{home.name.value}`")
    if me is not None and me != "self" and counter.counts.get(me):
        raise CannotRewire(f"it uses `{me}`, which the setup handlers call `self`")


def _bound_inside(expression: cst.BaseExpression) -> set[str]:
    names: set[str] = set()

    class Binders(cst.CSTVisitor):
        def visit_CompFor(self, node: cst.CompFor) -> None:
            names.update(_target_names(node.target))

        def visit_Lambda(self, node: cst.Lambda) -> None:
            names.update(p.name.value for p in all_params(node.params))

    walk(expression, Binders())
    return names


def _assigned_names(function: cst.FunctionDef) -> set[str]:
    names: set[str] = set()

    class Stores(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            pass

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            names.update(_target_names(node.target))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            names.update(_target_names(node.target))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            names.update(_target_names(node.target))

        def visit_For(self, node: cst.For) -> None:
            names.update(_target_names(node.target))

        def visit_AsName(self, node: cst.AsName) -> None:
            names.update(_target_names(node.name))

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            names.update(_target_names(node.target))

    walk(function.body, Stores())
    return names


def _target_names(target: cst.CSTNode) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [name for element in target.elements for name in _target_names(element.value)]
    if isinstance(target, cst.StarredElement):
        return _target_names(target.value)
    return []


# -- wiring: create and bind the advertiser ---------------------------------------------


class Wiring:
    """Edits that create and bind the advertiser (computed before any is registered)."""

    def __init__(self) -> None:
        self.after: list[tuple[cst.BaseStatement, list[cst.BaseStatement]]] = []
        self.before: list[tuple[cst.BaseStatement, list[cst.BaseStatement]]] = []
        self.replaced: list[tuple[cst.CSTNode, cst.CSTNode]] = []


def _statement(code: str) -> cst.BaseStatement:
    return cst.parse_statement(code)


def _last_statement(method: cst.FunctionDef, class_name: str) -> cst.BaseStatement:
    body = method.body
    if not isinstance(body, cst.IndentedBlock) or isinstance(body.body[-1], cst.SimpleStatementLine) and any(
        isinstance(small, cst.Return) for small in body.body[-1].body
    ):
        raise CannotRewire(f"`{class_name}.{method.name.value}` ends in a way the codemod cannot extend")
    return body.body[-1]


def _connection_param(method: cst.FunctionDef) -> str | None:
    params = [p.name.value for p in all_params(method.params)]
    return params[1] if len(params) >= 2 else None


def _wiring(
    context: FileContext, agent: cst.ClassDef, methods: dict[str, cst.FunctionDef], initialize: cst.FunctionDef
) -> Wiring:
    name = agent.name.value
    wiring = Wiring()
    on_connect = methods.get(CONNECTION_HOOK)
    init = methods.get("__init__")
    created_in_on_connect = False
    decorator = _field_class_decorator(context, agent)
    if decorator is not None and init is None:
        _declare_field(context, agent, wiring, FIELD_CLASSES[decorator[0]])
    elif init is not None:
        if decorator is not None and _makes_slots(*decorator):
            raise CannotRewire(f"`{name}` is a slots class with its own `__init__`")
        wiring.after.append((_last_statement(init, name), [_statement(f"self.{ADVERTISER} = {ADVERTISER_CLASS}()\n")]))
    elif on_connect is not None:
        created_in_on_connect = True
    else:
        raise CannotRewire(f"class `{name}` has no `__init__` or `{CONNECTION_HOOK}(conn)` to create a {ADVERTISER_CLASS} in")

    if on_connect is not None:
        conn = _connection_param(on_connect)
        if conn is None:
            raise CannotRewire(f"`{name}.{CONNECTION_HOOK}` takes no connection to bind to")
        bind = f"self.{ADVERTISER} = {ADVERTISER_CLASS}().bind({conn})" if created_in_on_connect else f"self.{ADVERTISER}.bind({conn})"
        wiring.after.append((_last_statement(on_connect, name), [_statement(bind + "\n")]))
        return wiring
    attribute = _connection_attribute(context, agent)
    if attribute is None:
        raise CannotRewire(
            f"class `{name}` has no `{CONNECTION_HOOK}(conn)` and keeps no connection attribute"
            f" to bind a {ADVERTISER_CLASS} to"
        )
    # Bound lazily, first thing in `initialize`: a factory (`AgentSideConnection(lambda
    # conn: Agent(conn))`) runs before the connection can send or be observed.
    body = initialize.body
    if not isinstance(body, cst.IndentedBlock):
        raise CannotRewire(f"`{name}.initialize` is a one-line body the codemod cannot extend")
    bind = [_statement(f"self.{ADVERTISER}.bind(self.{attribute})\n")]
    first = body.body[0]
    if is_docstring(first):
        wiring.after.append((first, bind))
    else:
        wiring.before.append((first, bind))
    return wiring



def _field_class_decorator(context: FileContext, agent: cst.ClassDef) -> tuple[str, cst.BaseExpression] | None:
    """(qualified name, expression) of a dataclass or attrs decorator on the class."""
    for decorator in agent.decorators:
        expression = decorator.decorator
        func = expression.func if isinstance(expression, cst.Call) else expression
        qualified = context.resolve(func)
        if qualified in FIELD_CLASSES:
            return qualified, expression
    return None


def _makes_slots(qualified: str, decorator: cst.BaseExpression) -> bool:
    given = {
        arg.keyword.value: _code(arg.value)
        for arg in (decorator.args if isinstance(decorator, cst.Call) else ())
        if arg.keyword is not None
    }
    return given.get("slots", "True" if qualified in SLOTS_BY_DEFAULT else "False") == "True"


def _code(node: cst.CSTNode) -> str:
    """Source of a node from any module (no module's settings matter here)."""
    return cst.Module([]).code_for_node(node)


def _declare_field(context: FileContext, agent: cst.ClassDef, wiring: Wiring, kind: tuple[str, str, str]) -> None:
    """`command_advertiser: CommandAdvertiser = field(...)` after the class's last field
    (and that field's attribute docstring), so slots and frozen classes work."""
    module, function, factory = kind
    field_name = _field_function(context, wiring, module, function)
    declaration = _statement(
        f"{ADVERTISER}: {ADVERTISER_CLASS} = {field_name}({factory}={ADVERTISER_CLASS}, init=False, repr=False)\n"
    )
    body = list(agent.body.body)
    last_field = None
    for index, statement in enumerate(body):
        if isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.AnnAssign):
            last_field = index
    if last_field is not None:
        if any(isinstance(line, cst.EmptyLine) and line.comment is None for line in body[last_field].leading_lines):
            declaration = declaration.with_changes(leading_lines=[cst.EmptyLine(indent=False)])
        if last_field + 1 < len(body) and is_docstring(body[last_field + 1]):
            last_field += 1
        wiring.after.append((body[last_field], [declaration]))
    elif is_docstring(body[0]):
        wiring.after.append((body[0], [declaration]))
    else:
        wiring.before.append((body[0], [declaration]))


def _field_function(context: FileContext, wiring: Wiring, module: str, function: str) -> str:
    """How this module names `<module>.<function>` (`dataclasses.field`, `attrs.field`),
    adding it to its `from <module> import ...` when it has none."""
    bindings = context.imports.bindings
    for local, qualified in bindings.items():
        if qualified == f"{module}.{function}":
            return local
    for local, qualified in bindings.items():
        if qualified == module:
            return f"{local}.{function}"
    local = function if function not in bindings else f"{module}_{function}"
    for statement in context.module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        small = statement.body[0]
        if (
            isinstance(small, cst.ImportFrom)
            and not small.relative
            and not isinstance(small.names, cst.ImportStar)
            and small.module is not None
            and context.code(small.module) == module
        ):
            alias = cst.ImportAlias(cst.Name(function), asname=None if local == function else cst.AsName(cst.Name(local)))
            wiring.replaced.append((small, small.with_changes(names=_with_alias(list(small.names), alias))))
            return local
    raise CannotRewire(f"the module imports `{module}` in a way the codemod cannot add `{function}` to")


def _with_alias(names: list[cst.ImportAlias], alias: cst.ImportAlias) -> list[cst.ImportAlias]:
    """`names` plus `alias` among the lowercase names in alphabetical order (isort's)."""
    new = alias.evaluated_name
    index = next(
        (i for i, name in enumerate(names) if name.evaluated_name.islower() and name.evaluated_name > new),
        len(names),
    )
    separator = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    between = [name.comma for name in names[:-1] if isinstance(name.comma, cst.Comma)]
    if between:
        separator = between[0]
    if index < len(names):
        return [*names[:index], alias.with_changes(comma=separator), *names[index:]]
    return [*names[:-1], names[-1].with_changes(comma=separator), alias.with_changes(comma=names[-1].comma)]


def _connection_attribute(
    context: FileContext, agent: cst.ClassDef, module: _Module | None = None, depth: int = 0
) -> str | None:
    """The attribute of `self` that holds the connection: a class-level field annotated
    with a connection type, or a connection parameter of `__init__` stored on `self`;
    looked for in the class, then in the project's classes it inherits from."""
    module = module or _Module(None, context.module, context.imports)

    def is_connection(annotation: cst.BaseExpression) -> bool:
        return _is_connection_type(module.imports, annotation)

    if not isinstance(agent.body, cst.IndentedBlock):
        return None
    init = None
    for statement in agent.body.body:
        if isinstance(statement, cst.FunctionDef) and statement.name.value == "__init__":
            init = statement
        if isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.AnnAssign):
            target = statement.body[0].target
            if isinstance(target, cst.Name) and is_connection(statement.body[0].annotation.annotation):
                return target.value
    if init is not None and isinstance(init.body, cst.IndentedBlock):
        connections = {
            param.name.value
            for param in all_params(init.params)[1:]
            if param.name.value in CONNECTION_NAMES
            or param.annotation is not None and is_connection(param.annotation.annotation)
        }
        for statement in init.body.body:
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                if isinstance(small, cst.Assign) and len(small.targets) == 1:
                    target, value = small.targets[0].target, small.value
                elif isinstance(small, cst.AnnAssign) and small.value is not None:
                    target, value = small.target, small.value
                else:
                    continue
                if (
                    isinstance(target, cst.Attribute)
                    and isinstance(target.value, cst.Name)
                    and target.value.value == "self"
                    and isinstance(value, cst.Name)
                    and value.value in connections
                ):
                    return target.attr.value
    if depth >= MAX_BASE_DEPTH:
        return None
    for base in agent.bases:
        found = _class_of(context, base.value, module) if base.keyword is None else None
        if found is not None:
            attribute = _connection_attribute(context, found[0], found[1], depth + 1)
            if attribute is not None:
                return attribute
    return None


def _is_connection_type(imports: ImportTable, annotation: cst.BaseExpression) -> bool:
    found = False

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            nonlocal found
            found = found or last_part(imports.resolve(node)) in CONNECTION_TYPES

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            nonlocal found
            found = found or node.attr.value in CONNECTION_TYPES
            return False

        def visit_SimpleString(self, node: cst.SimpleString) -> None:
            nonlocal found
            try:
                found = found or _is_connection_type(imports, cst.parse_expression(str(node.evaluated_value)))
            except cst.ParserSyntaxError:
                pass

    walk(annotation, Names())
    return found


# -- setup handlers: return attach(...) ------------------------------------------------


class _HandlerEdits:
    def __init__(self) -> None:
        self.replaced: list[tuple[cst.CSTNode, cst.CSTNode]] = []
        self.appended: list[tuple[cst.BaseStatement, list[cst.BaseStatement]]] = []


class _Returns(cst.CSTVisitor):
    """Return statements of one function, not of functions nested in it."""

    def __init__(self) -> None:
        self.returns: list[cst.Return] = []

    def visit_Return(self, node: cst.Return) -> None:
        self.returns.append(node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False


def _contains_await(node: cst.CSTNode) -> bool:
    found = False

    class Awaits(cst.CSTVisitor):
        def visit_Await(self, node: cst.Await) -> None:
            nonlocal found
            found = True

    walk(node, Awaits())
    return found


def _handler_edits(context: FileContext, method: cst.FunctionDef, kind: str, origin: cst.BaseExpression) -> _HandlerEdits:
    edits = _HandlerEdits()
    if method.asynchronous is None and _contains_await(origin):
        raise CannotRewire(f"it awaits, and `{method.name.value}` is not async")
    # Load and resume results carry no session id: it is the request's.
    session_id = _request_session_id(method) if kind in {"load", "resume"} else None
    finder = _Returns()
    walk(method.body, finder)
    indent = context.module.default_indent
    for statement in finder.returns:
        value = statement.value if statement.value is not None else cst.Name("None")
        call = attach_call(value, session_id=session_id, always=origin, indent=indent, module=context.module)
        if statement.value is not None:
            edits.replaced.append((statement.value, call))
        else:
            edits.replaced.append((statement, statement.with_changes(value=call, whitespace_after_return=cst.SimpleWhitespace(" "))))
    body = method.body
    falls_off_end = isinstance(body, cst.IndentedBlock) and not _always_exits(body.body)
    if kind in {"load", "resume"} and falls_off_end:
        call = attach_call(cst.Name("None"), session_id=session_id, always=origin, indent=indent, module=context.module)
        edits.appended.append((body.body[-1], [cst.SimpleStatementLine([cst.Return(call)])]))
    if not finder.returns and not edits.appended:
        raise CannotRewire(f"`{method.name.value}` returns no response to attach the commands to")
    return edits


def _always_exits(statements: Sequence[cst.BaseStatement]) -> bool:
    """Whether running `statements` always ends in a `return` or `raise` (a plain
    reading: the last statement returns or raises, or is a branch whose every arm does)."""
    if not statements:
        return False
    last = statements[-1]
    if isinstance(last, cst.SimpleStatementLine):
        return isinstance(last.body[-1], (cst.Return, cst.Raise))
    if isinstance(last, cst.If):
        orelse = last.orelse
        if orelse is None:
            return False
        rest = [orelse] if isinstance(orelse, cst.If) else list(orelse.body.body)
        return _always_exits(last.body.body) and _always_exits(rest)
    if isinstance(last, cst.Try):
        if last.finalbody is not None and _always_exits(last.finalbody.body.body):
            return True
        main = last.orelse.body.body if last.orelse is not None else last.body.body
        return _always_exits(main) and all(_always_exits(h.body.body) for h in last.handlers)
    if isinstance(last, cst.With):
        return _always_exits(last.body.body)
    return False


def _request_session_id(method: cst.FunctionDef) -> cst.BaseExpression:
    """`session_id` (keyword handlers, SDK 0.7+), `sessionId`, or the request object's
    field: `params.sessionId` for SDK 0.4-0.6's camelCase handlers, else
    `params.session_id` (AgentPool's own `acp` package)."""
    names = [param.name.value for param in all_params(method.params)][1:]
    for name in ("session_id", "sessionId"):
        if name in names:
            return cst.Name(name)
    positional = [*method.params.posonly_params, *method.params.params][1:]
    if len(positional) == 1 and not method.params.kwonly_params:
        field = "sessionId" if any(c.isupper() for c in method.name.value) else "session_id"
        return cst.Attribute(cst.Name(positional[0].name.value), cst.Name(field))
    raise CannotRewire(f"`{method.name.value}` has no `session_id` parameter or request object")


def _arg(value: cst.BaseExpression, keyword: str | None = None) -> cst.Arg:
    if keyword is None:
        return cst.Arg(value)
    return cst.Arg(value, keyword=cst.Name(keyword), equal=_KEYWORD_EQUAL)


def _call(method: str, args: list[cst.Arg], *, indent: str, module: cst.Module) -> cst.Call:
    func = cst.parse_expression(f"self.{ADVERTISER}.{method}")
    inline = cst.Call(
        func,
        [arg.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for arg in args[:-1]] + [args[-1]],
    )
    code = module.code_for_node(inline)
    if "\n" not in code and len(code) <= MAX_INLINE_CALL:
        return inline
    # One argument per line, with a trailing comma, as formatters write it; an argument
    # that spans lines (the handler's own multi-line response) moves one level in.
    def line_break(extra: str) -> cst.ParenthesizedWhitespace:
        return cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(extra))

    args = [arg.with_changes(value=arg.value.visit(_Indent(indent))) for arg in args]
    exploded = [arg.with_changes(comma=cst.Comma(whitespace_after=line_break(indent))) for arg in args[:-1]]
    exploded.append(args[-1].with_changes(comma=cst.Comma(whitespace_after=line_break(""))))
    return cst.Call(func, exploded, whitespace_before_args=line_break(indent))


class _Indent(cst.CSTTransformer):
    """Moves the continuation lines of an expression one indentation level in."""

    def __init__(self, indent: str) -> None:
        self.indent = indent

    def leave_ParenthesizedWhitespace(
        self, original_node: cst.ParenthesizedWhitespace, updated_node: cst.ParenthesizedWhitespace
    ) -> cst.ParenthesizedWhitespace:
        if not updated_node.indent:
            return updated_node
        return updated_node.with_changes(last_line=cst.SimpleWhitespace(updated_node.last_line.value + self.indent))

    def leave_EmptyLine(self, original_node: cst.EmptyLine, updated_node: cst.EmptyLine) -> cst.EmptyLine:
        if not updated_node.indent or updated_node.comment is None:
            return updated_node
        return updated_node.with_changes(whitespace=cst.SimpleWhitespace(updated_node.whitespace.value + self.indent))


def attach_call(
    value: cst.BaseExpression,
    *,
    session_id: cst.BaseExpression | None,
    always: cst.BaseExpression,
    indent: str,
    module: cst.Module,
) -> cst.Call:
    args = [_arg(value)]
    if session_id is not None:
        args.append(_arg(session_id, "session_id"))
    args.append(_arg(always, "always"))
    return _call("attach", args, indent=indent, module=module)


# -- handlers inherited from a base class -------------------------------------------


class _Module:
    """A module whose classes the rewire reads: this file, or another of the project."""

    def __init__(self, identity: str | None, tree: cst.Module, imports: ImportTable) -> None:
        self.identity = identity
        self.tree = tree
        self.imports = imports
        self.classes = {s.name.value: s for s in tree.body if isinstance(s, cst.ClassDef)}


class _Imports(cst.CSTVisitor):
    """Import statements of a module, not those inside its functions or classes."""

    def __init__(self) -> None:
        self.table = ImportTable()

    def visit_Import(self, node: cst.Import) -> None:
        self.table.add(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.table.add(node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False


MAX_BASE_DEPTH = 6  # classes followed up an inheritance chain (and through re-exports)


def _inherited_handler(
    context: FileContext, agent: cst.ClassDef, names: tuple[str, ...]
) -> tuple[str, cst.FunctionDef] | None:
    """(owning class, method) of the first handler named one of `names` that `agent`
    inherits from a class of the project, in method resolution order; stubs (a body of
    `...`, `pass` or `raise NotImplementedError`, as in the SDK's `Agent` protocol) do
    not count."""
    here = _Module(None, context.module, context.imports)
    pending = [(base, here) for base in agent.bases if base.keyword is None]
    seen: set[tuple[str | None, str]] = set()
    while pending and len(seen) < MAX_BASE_DEPTH:
        base, module = pending.pop(0)
        found = _class_of(context, base.value, module)
        if found is None or (found[1].identity, found[0].name.value) in seen:
            continue
        cls, owner = found
        seen.add((owner.identity, cls.name.value))
        if isinstance(cls.body, cst.IndentedBlock):
            for statement in cls.body.body:
                if isinstance(statement, cst.FunctionDef) and statement.name.value in names and not _is_stub(statement):
                    return cls.name.value, statement
        pending = [(b, owner) for b in cls.bases if b.keyword is None] + pending
    return None


def _class_of(
    context: FileContext, expression: cst.BaseExpression, module: _Module, depth: int = 0
) -> tuple[cst.ClassDef, _Module] | None:
    if isinstance(expression, cst.Name) and expression.value in module.classes:
        return module.classes[expression.value], module
    qualified = module.imports.resolve(expression)
    if context.modules is None or qualified is None or depth > MAX_BASE_DEPTH:
        return None
    module_name, _, class_name = qualified.rpartition(".")
    if not module_name:
        return None
    found = context.modules(module_name, module.identity)
    if found is None:
        return None
    identity, source = found
    try:
        tree = cst.parse_module(source)
    except (cst.ParserSyntaxError, RecursionError, UnicodeDecodeError):
        return None
    imports = _Imports()
    walk(tree, imports)
    other = _Module(identity, tree, imports.table)
    if class_name in other.classes:
        return other.classes[class_name], other
    if class_name in other.imports.bindings:  # re-exported, as packages' __init__ do
        return _class_of(context, cst.Name(class_name), other, depth + 1)
    return None


def _is_stub(method: cst.FunctionDef) -> bool:
    body = method.body
    statements = body.body if isinstance(body, cst.IndentedBlock) else [body]
    for statement in statements:
        if not isinstance(statement, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            return False
        for small in statement.body:
            if isinstance(small, cst.Pass):
                continue
            if isinstance(small, cst.Expr) and isinstance(small.value, (cst.Ellipsis, cst.SimpleString)):
                continue
            if isinstance(small, cst.Raise) and "NotImplementedError" in _code(small):
                continue
            return False
    return True


_LITERAL_NAMES = frozenset({"None", "True", "False"})


def _copyable_default(default: cst.BaseExpression) -> bool:
    if isinstance(default, cst.Name):
        return default.value in _LITERAL_NAMES
    if isinstance(default, (cst.List, cst.Tuple, cst.Dict)):
        return not default.elements
    return isinstance(default, (cst.SimpleString, cst.Integer, cst.Float))


def _override(
    context: FileContext, owner: str, method: cst.FunctionDef, kind: str, origin: cst.BaseExpression
) -> cst.FunctionDef:
    """`def <handler>(<its parameters>): return self.command_advertiser.attach(super().<handler>(...), ...)`,
    parameters copied without annotations (their names may not be imported here)."""
    name = method.name.value
    if method.asynchronous is None and _contains_await(origin):
        raise CannotRewire(f"it awaits, and the inherited `{owner}.{name}` is not async")
    params = method.params
    signature: list[str] = []
    forwarded: list[str] = []

    def declare(param: cst.Param) -> str:
        if param.default is None:
            return param.name.value
        if not _copyable_default(param.default):
            raise CannotRewire(f"the inherited `{owner}.{name}` has a default the codemod cannot copy")
        return f"{param.name.value}={_code(param.default)}"

    positional = [*params.posonly_params, *params.params]
    for index, param in enumerate(positional):
        signature.append(declare(param))
        if index == len(params.posonly_params) - 1:
            signature.append("/")
        if index:  # the first is `self`
            forwarded.append(param.name.value)
    if isinstance(params.star_arg, cst.Param):
        signature.append(f"*{params.star_arg.name.value}")
        forwarded.append(f"*{params.star_arg.name.value}")
    elif params.kwonly_params:
        signature.append("*")
    for param in params.kwonly_params:
        signature.append(declare(param))
        forwarded.append(f"{param.name.value}={param.name.value}")
    if params.star_kwarg is not None:
        signature.append(f"**{params.star_kwarg.name.value}")
        forwarded.append(f"**{params.star_kwarg.name.value}")
    prefix = "async " if method.asynchronous is not None else ""
    awaited = "await " if method.asynchronous is not None else ""
    definition = cst.parse_statement(f"{prefix}def {name}({', '.join(signature)}):\n    return None\n")
    assert isinstance(definition, cst.FunctionDef)
    value = cst.parse_expression(f"{awaited}super().{name}({', '.join(forwarded)})")
    session_id = _request_session_id(method) if kind in {"load", "resume"} else None
    call = attach_call(value, session_id=session_id, always=origin, indent=context.module.default_indent, module=context.module)
    body = cst.IndentedBlock([cst.SimpleStatementLine([cst.Return(call)])])
    return definition.with_changes(body=body, leading_lines=[cst.EmptyLine(indent=False)])


# -- import ---------------------------------------------------------------------------


def _runtime_import(context: FileContext) -> tuple[str, int | None] | None:
    """(module, isort section) the advertiser is imported from, None when the module
    imports it already; checked before any edit is registered."""
    if ADVERTISER_CLASS in context.imports.bindings:
        return None
    if not any(
        isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], (cst.Import, cst.ImportFrom))
        for statement in _before_first_definition(context.module)
    ):
        raise CannotRewire("the module has no import section to add the runtime import to")
    runtime = context.settings.runtime_import
    if runtime != VENDORED:
        return runtime, None
    # The vendored copy sits next to the module: a package imports it relatively; a
    # script's own folder is on sys.path (and the module is first party to isort).
    in_package = context.modules is not None and context.modules(".", None) is not None
    return ("." + VENDORED_MODULE, LOCAL) if in_package else (VENDORED_MODULE, FIRST_PARTY)


def _project_target(context: FileContext, runtime: str) -> str | None:
    """Where, relative to the module's folder, a `runtime-import` naming a module of the
    project wants the shim written: its package is in the project and the module is not
    there yet (or is a vendored copy). None: an installed module, imported as it is."""
    package, _, name = runtime.rpartition(".")
    if not package or context.modules is None or context.path is None:
        return None
    found = context.modules(package, None)
    if found is None or os.path.basename(found[0]) != "__init__.py":
        return None
    target = os.path.join(os.path.dirname(found[0]), name + ".py")
    existing = context.modules(runtime, None)
    if existing is not None and (existing[0] != target or not is_vendored(existing[1])):
        return None  # a module of the project's own (or a package): import it
    importer = os.path.dirname(os.path.abspath(context.path)) if os.path.isabs(found[0]) else os.path.dirname(context.path)
    return os.path.relpath(target, importer or ".")


def _before_first_definition(module: cst.Module) -> list[cst.BaseStatement]:
    statements = []
    for statement in module.body:
        if isinstance(statement, (cst.ClassDef, cst.FunctionDef)):
            break
        statements.append(statement)
    return statements


def _add_runtime_import(context: FileContext, runtime: tuple[str, int | None]) -> None:
    """`from <runtime> import CommandAdvertiser` into the import block, in isort order
    (engine/analysis/imports.py); in vendored mode, with the shim's file beside the module."""
    module, section = runtime
    context.add_import(module, ADVERTISER_CLASS, section)
    if context.settings.runtime_import == VENDORED:
        context.add_companion(VENDORED_FILE, vendored_source())
    elif (target := _project_target(context, context.settings.runtime_import)) is not None:
        context.add_companion(target, vendored_source())
