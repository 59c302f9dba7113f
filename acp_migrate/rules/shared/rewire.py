"""Hand a command list removed from `initialize` to the agent's `CommandAdvertiser`,
which advertises it to every session the agent sets up.

Not a rule: the fix that ACP001-003 removals call (`shared.advertised`) so that no command
a server advertised is lost. The list `E` was advertised for an agent class when it is
in the class's `initialize`, in a method of the class that `initialize` calls directly
(`agent_capabilities=self._capabilities()`: `E` may use `self` but not that method's
locals), or in a module-level constant (`CAPS =
AgentCapabilities(slash_commands=SKILLS)`) that the `initialize` of classes of the same
module use, and nothing else in the module does (each such class is rewired). For
each such class it edits the class to use the runtime shim:

- creates the advertiser: a dataclass field (`field(default_factory=CommandAdvertiser)`,
  so slots and frozen classes work), else at the end of `__init__`, else in `on_connect`;
- binds it to the connection as the first statement of `initialize` (every session
  setup comes after it), from the attribute that holds the connection (a dataclass
  field annotated with a connection type, or a connection parameter of `__init__` or
  `on_connect` stored on `self`, in the class or a base of the project, or for a mixin
  in every class of its module made of it): beside
  `advertise`, so that no override of `on_connect` without super() (a subclass in a
  file fix never reads) leaves it unbound. Where no attribute holds the connection, in
  `on_connect(conn)`. Never in `__init__`: an SDK factory calls it before the
  connection can send. A factory wrapped in a way not proven to hand the agent its
  connection (`traced(lambda conn: Agent(conn))`, `shared/agent_factory.py`) is refused;
- gives it the list first thing in `initialize`: `self.command_advertiser.advertise(E)`
  (`E` itself when it is a name or a call with no arguments, which the advertiser calls
  at each setup; else `lambda: E`); a list using `initialize`'s parameters or locals
  is given as its value, just before the statement it was in.

The setup handlers are not edited: the bound advertiser watches the connection, and
after every successful setup response (new, load, resume, fork: whichever handler, of
whichever class, answered it) sends that session its commands. Lists the server's own
code sends (`available_commands_update` from any module) stay as they are: the
advertiser holds them until the session's setup response is out and merges `E` into
them (docs/runtime.md), so neither list replaces the other.

When it cannot do that safely, it says why; `keep_advertised` then leaves a TODO
comment (an ACP005 follow-up).
"""

from __future__ import annotations

import libcst as cst

from acp_migrate.cst.layout import is_docstring
from acp_migrate.cst.walk import walk
from acp_migrate.rules.context import FileContext, all_params
from acp_migrate.rules.shared import ADVERTISER, ADVERTISER_CLASS
from acp_migrate.rules.shared.agent_factory import check_agent_factories, check_factories_elsewhere
from acp_migrate.rules.shared.generated import call_statement, source_of
from acp_migrate.rules.shared.list_owner import (
    CannotRewire,
    agent_classes,
    check_unconditional,
    methods_of,
    self_name,
    uses_locals,
)
from acp_migrate.rules.shared.project_classes import connection_attribute, subclasses_connection_attribute
from acp_migrate.rules.shared.runtime_import import NoImportSection, add_runtime_import, runtime_import

CONNECTION_HOOK = "on_connect"
# Class decorators that build `__init__` from declared fields -> (module, its field
# function, the keyword naming a default factory). attrs' `define` makes slots classes.
FIELD_CLASSES = {
    "dataclasses.dataclass": ("dataclasses", "field", "default_factory"),
    **{f"{m}.{d}": (m, "field", "factory") for m in ("attrs", "attr") for d in ("define", "mutable", "frozen")},
    "attr.s": ("attr", "ib", "factory"),
    "attr.attrs": ("attr", "ib", "factory"),
}
SLOTS_BY_DEFAULT = frozenset(f"{m}.{d}" for m in ("attrs", "attr") for d in ("define", "mutable", "frozen"))


def rewire(context: FileContext, origin: cst.BaseExpression) -> None:
    """Hand `origin` (the removed list's expression) to the advertiser of the agent
    class (or classes) it was advertised for, or raise CannotRewire."""
    targets = agent_classes(context)
    check_unconditional(context)
    check_agent_factories(context)
    check_factories_elsewhere(context, [agent for agent, _, _ in targets])
    # An awaited list (`await self._discover_commands()`) is advertised as the value
    # `initialize` awaits, as it was: the advertiser takes no coroutine.
    at_site = uses_locals(origin, targets[0][2], targets[0][1]) or _contains_await(origin)
    # Every class's edits are computed before any is registered: a CannotRewire for one
    # leaves the tree alone.
    rewired = dict(context.rewired)
    plans = []
    for agent, initialize, _ in targets:
        plan = _plan(context, agent, initialize, origin, rewired, at_site)
        if plan is not None:
            rewired[agent] = plan.origin_code
            plans.append(plan)
    try:
        runtime = runtime_import(context) if any(plan.owns_advertiser for plan in plans) else None
    except NoImportSection:
        raise CannotRewire("the module has no import section to add the runtime import to") from None
    for plan in plans:
        plan.register(context)
    if runtime is not None:
        add_runtime_import(context, runtime)
    if plans:
        module = runtime[0] if runtime is not None else context.settings.runtime_import
        context.imports.bindings.setdefault(ADVERTISER_CLASS, f"{module}.{ADVERTISER_CLASS}")


# -- one class's edits --------------------------------------------------------------------


class Wiring:
    """Edits that create, bind and feed the advertiser (computed before any is registered)."""

    def __init__(self, agent: cst.ClassDef, origin_code: str) -> None:
        self.agent = agent
        self.origin_code = origin_code
        # It creates its own advertiser (not inherited from a class rewired above).
        self.owns_advertiser = True
        self.after: list[tuple[cst.BaseStatement, list[cst.BaseStatement]]] = []
        self.before: list[tuple[cst.BaseStatement, list[cst.BaseStatement]]] = []
        self.replaced: list[tuple[cst.CSTNode, cst.CSTNode]] = []

    def register(self, context: FileContext) -> None:
        context.rewired[self.agent] = self.origin_code
        for node, replacement in self.replaced:
            context.replace(node, replacement)
        for statement, new in self.after:
            context.insert_after(statement, new)
        for statement, new in self.before:
            context.insert_before(statement, new)


def _plan(
    context: FileContext,
    agent: cst.ClassDef,
    initialize: cst.FunctionDef,
    origin: cst.BaseExpression,
    rewired: dict[cst.ClassDef, str],
    at_site: bool,
) -> Wiring | None:
    """The edits for `agent`, None when it already advertises `origin`. `rewired`:
    the classes rewired so far, this run's plans included. `at_site`: the list uses
    `initialize`'s locals, so its value is advertised from where the list was."""
    done = rewired.get(agent)
    origin_code = context.code(origin, limit=10_000)
    if done is not None:
        if done != origin_code:
            raise CannotRewire(f"class `{agent.name.value}` already advertises `{context.code(origin)}`")
        return None
    if _contains_await(origin) and initialize.asynchronous is None:
        raise CannotRewire(f"it awaits, and `{agent.name.value}.initialize` is not async")
    body = initialize.body
    if not isinstance(body, cst.IndentedBlock):
        raise CannotRewire(f"`{agent.name.value}.initialize` is a one-line body the codemod cannot extend")
    me = self_name(initialize)
    if me is None:
        raise CannotRewire(f"`{agent.name.value}.initialize` is not a plain method")
    inherited = any(
        isinstance(base.value, cst.Name) and base.value.value in {c.name.value for c in rewired} for base in agent.bases
    )
    wiring = Wiring(agent, origin_code)
    # A subclass of a class rewired above already has the advertiser, bound once.
    first = []
    if not inherited:
        bind = _create_and_bind(context, agent, initialize, wiring)
        if bind is not None:
            first.append(bind)
    else:
        wiring.owns_advertiser = False
    depth = _class_depth(context, agent) + 2  # the body of a method of the class
    try:
        given = _advertised(context, origin, at_site)
    except ValueError as why:
        raise CannotRewire(str(why)) from None
    advertise = call_statement(
        "", f"{me}.{ADVERTISER}.advertise", [given], depth=depth, module=context.module, style=context.settings.style
    )
    site = next((s for s in body.body if s in context.statements), None) if at_site else None
    opening = body.body[0]
    if site is None or site is opening or is_docstring(opening) and site is body.body[1]:
        first.append(advertise)
    else:  # its value, where the list was: the locals it uses are set there
        wiring.before.append((site, [advertise]))
    if is_docstring(opening):
        wiring.after.append((opening, first))
    else:
        wiring.before.append((opening, first))
    return wiring


def _advertised(context: FileContext, origin: cst.BaseExpression, at_site: bool) -> str:
    """What `advertise` is given, as code: a name or a call without arguments as the
    callable it calls (the advertiser calls it at each setup), else a lambda; the value
    itself where it uses `initialize`'s locals or awaits (`at_site`)."""
    if at_site:
        return source_of(context.module, origin)
    if isinstance(origin, cst.Name):
        return origin.value
    if isinstance(origin, cst.Call) and not origin.args and isinstance(origin.func, (cst.Name, cst.Attribute)):
        return source_of(context.module, origin.func)
    return "lambda: " + source_of(context.module, origin)


def _class_depth(context: FileContext, agent: cst.ClassDef) -> int:
    """How many blocks deep the `class` statement is (0: at the module's top level)."""
    if agent in context.lineage:
        return sum(isinstance(node, cst.IndentedBlock) for node in context.lineage[: context.lineage.index(agent)])
    return 0


def _contains_await(node: cst.CSTNode) -> bool:
    found = False

    class Awaits(cst.CSTVisitor):
        def visit_Await(self, node: cst.Await) -> None:
            nonlocal found
            found = True

    walk(node, Awaits())
    return found


# -- wiring: create and bind the advertiser ---------------------------------------------


def _last_statement(method: cst.FunctionDef, class_name: str) -> cst.BaseStatement:
    body = method.body
    if (
        not isinstance(body, cst.IndentedBlock)
        or isinstance(body.body[-1], cst.SimpleStatementLine)
        and any(isinstance(small, cst.Return) for small in body.body[-1].body)
    ):
        raise CannotRewire(f"`{class_name}.{method.name.value}` ends in a way the codemod cannot extend")
    return body.body[-1]


def _connection_param(method: cst.FunctionDef) -> str | None:
    params = [p.name.value for p in all_params(method.params)]
    return params[1] if len(params) >= 2 else None


def _create_and_bind(
    context: FileContext, agent: cst.ClassDef, initialize: cst.FunctionDef, wiring: Wiring
) -> cst.BaseStatement | None:
    """Registers the advertiser's creation (and its binding in `on_connect`, where no
    attribute holds the connection) in `wiring`; returns the bind statement `initialize`
    starts with otherwise."""
    name = agent.name.value
    methods = methods_of(agent)
    on_connect = methods.get(CONNECTION_HOOK)
    init = methods.get("__init__")
    created_in_on_connect = False
    decorator = _field_class_decorator(context, agent)
    if decorator is not None and init is None:
        _declare_field(context, agent, wiring, FIELD_CLASSES[decorator[0]])
    elif init is not None:
        if decorator is not None and _makes_slots(*decorator):
            raise CannotRewire(f"`{name}` is a slots class with its own `__init__`")
        wiring.after.append((_last_statement(init, name), [_statement(f"self.{ADVERTISER} = {ADVERTISER_CLASS}()")]))
    elif on_connect is not None:
        created_in_on_connect = True
    else:
        # The connection arrives in a base class (another file, another package), or, for
        # a mixin, in the module's classes made of it: the advertiser is made and bound
        # where every setup starts, first in `initialize`.
        attribute = connection_attribute(context, agent) or subclasses_connection_attribute(context, agent)
        if attribute is None:
            raise CannotRewire(
                f"class `{name}` has no `__init__` or `{CONNECTION_HOOK}(conn)` to create a {ADVERTISER_CLASS} in,"
                " and inherits no connection attribute to bind one to"
            )
        me = self_name(initialize)
        return _statement(f"{me}.{ADVERTISER} = {ADVERTISER_CLASS}().bind({me}.{attribute})")

    attribute = connection_attribute(context, agent)
    if on_connect is not None and (created_in_on_connect or attribute is None):
        conn = _connection_param(on_connect)
        if conn is None:
            raise CannotRewire(f"`{name}.{CONNECTION_HOOK}` takes no connection to bind to")
        bind = (
            f"self.{ADVERTISER} = {ADVERTISER_CLASS}().bind({conn})"
            if created_in_on_connect
            else f"self.{ADVERTISER}.bind({conn})"
        )
        wiring.after.append((_last_statement(on_connect, name), [_statement(bind)]))
        return None
    if attribute is None:
        raise CannotRewire(
            f"class `{name}` has no `{CONNECTION_HOOK}(conn)` and keeps no connection attribute"
            f" to bind a {ADVERTISER_CLASS} to"
        )
    # Bound first thing in `initialize`, beside `advertise`: a factory (`AgentSideConnection(lambda
    # conn: Agent(conn))`) runs before the connection can send or be observed, and a
    # subclass's `on_connect` that does not call super() cannot leave it unbound.
    return _statement(f"{self_name(initialize)}.{ADVERTISER}.bind({self_name(initialize)}.{attribute})")


def _statement(code: str) -> cst.BaseStatement:
    return cst.parse_statement(code + "\n")


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
    declaration = call_statement(
        f"{ADVERTISER}: {ADVERTISER_CLASS} = ",
        field_name,
        [f"{factory}={ADVERTISER_CLASS}", "init=False", "repr=False"],
        depth=_class_depth(context, agent) + 1,
        module=context.module,
        style=context.settings.style,
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
            alias = cst.ImportAlias(
                cst.Name(function), asname=None if local == function else cst.AsName(cst.Name(local))
            )
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
