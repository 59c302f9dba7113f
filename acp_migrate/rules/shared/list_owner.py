"""Whose list a removed command list is, and what it may use where it goes: the agent
classes it was advertised for (the `initialize` it is in, a method `initialize` calls, or
a module constant the classes' `initialize` use), and whether it uses `initialize`'s own
parameters or locals. Not a rule: the rewire asks it; `CannotRewire` says why not.
"""

from __future__ import annotations

import libcst as cst

from acp_migrate.cst.names import MentionCounter, mentions
from acp_migrate.cst.walk import walk
from acp_migrate.rules.context import FileContext, all_params
from acp_migrate.rules.shared.syntax import target_names


class CannotRewire(Exception):
    """Why the list cannot be moved; the text completes "the list could not be moved: ..."."""


NOT_INITIALIZE = "it is not in an agent class's `initialize` method"


# -- whose list it is -----------------------------------------------------------------


# Nodes under which code runs only sometimes: a list advertised there cannot become
# a list every session gets (the condition has to move with it, which needs a person).
_CONDITIONAL = (
    cst.If,
    cst.Else,
    cst.For,
    cst.While,
    cst.Match,
    cst.ExceptHandler,
    cst.IfExp,
    cst.BooleanOperation,
    cst.CompFor,
    cst.Lambda,
)


def check_unconditional(context: FileContext) -> None:
    lineage = context.lineage
    function = context.function
    start = lineage.index(function) + 1 if function is not None and function in lineage else 0
    for node in lineage[start:]:
        if isinstance(node, _CONDITIONAL):
            raise CannotRewire("it is advertised only under a condition (`if`, a loop, `except`, `and`/`or`)")


def agent_classes(context: FileContext) -> list[tuple[cst.ClassDef, cst.FunctionDef, cst.FunctionDef | None]]:
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
    initialize = methods_of(agent).get("initialize")
    if initialize is None or function not in _called_methods(agent, initialize):
        raise CannotRewire(
            f"it is in `{agent.name.value}.{function.name.value}`, which is not `initialize` or a method it calls"
        )
    return [(agent, initialize, function)]


def methods_of(agent: cst.ClassDef) -> dict[str, cst.FunctionDef]:
    if not isinstance(agent.body, cst.IndentedBlock):
        return {}
    return {statement.name.value: statement for statement in agent.body.body if isinstance(statement, cst.FunctionDef)}


def self_name(method: cst.FunctionDef) -> str | None:
    """The name of a plain method's first parameter (`self`); None for static and class methods."""
    if any(cst.Module([]).code_for_node(d.decorator) in {"staticmethod", "classmethod"} for d in method.decorators):
        return None
    positional = [*method.params.posonly_params, *method.params.params]
    return positional[0].name.value if positional else None


def _called_methods(agent: cst.ClassDef, initialize: cst.FunctionDef) -> list[cst.FunctionDef]:
    """The methods of `agent` that its `initialize` calls directly as `self.<name>(...)`
    (not from a function or lambda nested in it)."""
    me = self_name(initialize)
    methods = methods_of(agent)
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
        initialize = methods_of(agent).get("initialize")
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


# -- checks ---------------------------------------------------------------------------


def uses_locals(origin: cst.BaseExpression, home: cst.FunctionDef | None, initialize: cst.FunctionDef) -> bool:
    """Whether the expression uses parameters or locals of `initialize` (then its value,
    taken where the list was, is what every session gets). It may not use those of
    another method `initialize` calls, which do not exist in `initialize`."""
    if home is None:  # a module-level constant: module-level names only
        return False
    params = [p.name.value for p in all_params(home.params)]
    me = self_name(home)
    local_names = set(params[1:] if me is not None else params) | _assigned_names(home)
    counter = MentionCounter()
    walk(origin, counter)
    # A comprehension's or lambda's own variables are the expression's, not `initialize`'s.
    used = sorted((set(counter.counts) - _bound_inside(origin)) & local_names)
    if used and home is not initialize:
        raise CannotRewire(f"it uses `{used[0]}`, which only exists inside `{home.name.value}`")
    own = self_name(initialize)
    if me is not None and me != own and counter.counts.get(me):
        raise CannotRewire(f"it uses `{me}`, which `initialize` calls `{own}`")
    return bool(used)


def _bound_inside(expression: cst.BaseExpression) -> set[str]:
    names: set[str] = set()

    class Binders(cst.CSTVisitor):
        def visit_CompFor(self, node: cst.CompFor) -> None:
            names.update(target_names(node.target))

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
            names.update(target_names(node.target))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            names.update(target_names(node.target))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            names.update(target_names(node.target))

        def visit_For(self, node: cst.For) -> None:
            names.update(target_names(node.target))

        def visit_AsName(self, node: cst.AsName) -> None:
            names.update(target_names(node.name))

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            names.update(target_names(node.target))

    walk(function.body, Stores())
    return names
