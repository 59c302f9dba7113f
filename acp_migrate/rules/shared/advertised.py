"""Where every way of setting the removed field ends: `remove_advertised` takes a
legacy value out, moving its commands into the agent's session setup handlers
(`shared/rewire.py`), and `keep_advertised` is the fallback that keeps it under a
TODO, with an ACP005 follow-up saying why. Also how the rules recognise the legacy
factories and a setting's statement. Not a rule: ACP001, ACP002 and ACP003 call it.
"""

from __future__ import annotations

import libcst as cst

from acp_migrate.cst.names import mentions
from acp_migrate.rules.base import Report
from acp_migrate.rules.context import FileContext, all_params
from acp_migrate.rules.shared import (
    CAPABILITY_CLASSES,
    LEGACY_KEYS,
    NOT_ADVERTISED_RULE,
    SCHEMA_CLASSES,
    TODO_MARK,
)
from acp_migrate.rules.shared.legacy_tests import state_of_test_code
from acp_migrate.rules.shared.rewire import CannotRewire, rewire

TODO_WIDTH = 99  # a TODO line, indentation included, fits this


def is_legacy_factory(context: FileContext, func: cst.BaseExpression) -> bool:
    """`AgentCapabilities(...)`, `AgentCapabilities.create(...)`, `InitializeResponse.create(...)`."""
    if context.is_schema_class(func, CAPABILITY_CLASSES):
        return True
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "create"
        and context.is_schema_class(func.value, SCHEMA_CLASSES)
    )


def assigned_value(
    node: cst.Assign | cst.AnnAssign | cst.AugAssign, target: cst.BaseExpression, value: cst.BaseExpression
) -> cst.BaseExpression:
    """What `target` is given: the matching element of `a, b = x, y`, else the value."""
    if isinstance(node, cst.Assign) and isinstance(value, (cst.Tuple, cst.List)):
        for assign_target in node.targets:
            names = assign_target.target
            if isinstance(names, (cst.Tuple, cst.List)) and len(names.elements) == len(value.elements):
                for name, element in zip(names.elements, value.elements):
                    if name.value is target and not isinstance(element, cst.StarredElement):
                        return element.value
    return value


def sole_statement(context: FileContext, small: cst.BaseSmallStatement) -> cst.SimpleStatementLine | None:
    """The statement line being visited when `small` is all of it (it can then go whole)."""
    statement = context.statements[-1] if context.statements else None
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 and statement.body[0] is small:
        return statement
    return None


def _forwards_schema_parameter(context: FileContext, value: cst.BaseExpression) -> bool:
    """True for `slash_commands=slash_commands or []` inside an owned schema's `create`
    or `__init__`."""
    owned = context.schema_method()
    if owned is None or owned[1].name.value not in {"create", "__init__"}:
        return False
    legacy_params = {p.name.value for p in all_params(owned[1].params)} & LEGACY_KEYS
    names = set(mentions(value))
    return bool(names) and names <= legacy_params | {"list", "tuple", "None"}


def remove_advertised(
    context: FileContext,
    anchor: cst.CSTNode,
    value: cst.BaseExpression,
    code: str,
    message: str,
    *,
    caller: bool = False,
) -> None:
    """Report `anchor` (a keyword or dict entry whose `value` advertised commands at
    initialize) under `code` and remove it, moving the commands into the agent's
    session setup handlers (`shared/rewire.py`) and the locals that only fed them.

    When they cannot be moved safely, nothing is removed: the code stays where it is
    with a TODO line above its statement, the report is not fixable, and its ACP005
    follow-up says why. A report that will be dropped (suppressed, disabled) does not
    rewire, so that a class is not taken for rewired by a rewire dropped with it.

    `caller`: `anchor` passes the field to a schema factory (`Report.caller`). Inside a
    schema the project owns, the keyword forwarding `create`'s own parameter goes with
    that parameter: it stays while the schema keeps the field.

    In a test file's tests, fixtures and helpers (`legacy_tests.state_of_test_code`) nothing is
    moved and no TODO is written: inside a test fix removes (ACP008) there is nothing to
    do; in a test about the field that fix leaves to a person, the code stays, reported
    and not fixable (the schema keeps the field for it); in other test code the value is
    simply dropped."""
    state = state_of_test_code(context)
    if state == "removed":
        return
    if state == "left":
        context.report(
            Report(
                anchor,
                code,
                f"{message}; left as it is: the test or fixture around it reads the field and fix leaves it "
                "to a person (acp-migrate rules ACP008)",
                fixable=False,
                caller=caller,
            )
        )
        return
    if state != "kept" and _forwards_schema_parameter(context, value):
        if not context.schema_kept_by():
            with context.fix(Report(anchor, code, message, fixable=True)):
                context.drop_value(value)
                context.remove(anchor)
        return
    if state == "kept" or context.dropped(anchor, code) or context.is_provably_empty(value):
        with context.fix(Report(anchor, code, message, fixable=True, caller=caller)):
            context.drop_value(value)
            context.remove(anchor)
        return
    origin, feeding = context.value_origin(value)
    try:
        with context.fix(Report(anchor, code, message, fixable=True, caller=caller)):
            rewire(context, origin)
            for statement in feeding:
                context.remove(statement)
            context.remove(anchor)
        return
    except CannotRewire as why:
        reason = str(why)
    keep_advertised(context, anchor, context.code(value), code, message, reason, caller=caller)


def keep_advertised(
    context: FileContext,
    anchor: cst.CSTNode,
    source: str,
    code: str,
    message: str,
    reason: str,
    *,
    caller: bool = False,
) -> None:
    """The fallback, for a legacy value `fix` cannot take out safely (`source`: the
    commands, as code; `reason`: why): the code stays, a TODO line goes above its
    statement, the report is not fixable and its ACP005 follow-up says why."""
    if state_of_test_code(context) == "removed":
        return
    followup = Report(
        anchor,
        NOT_ADVERTISED_RULE,
        f"commands from `{source}` are still advertised at initialize: `fix` cannot move them into the "
        f"session setup handlers: {reason}; advertise them per session (acp-migrate rules ACP005)",
        fixable=False,
    )
    message = f"{message}; `fix` cannot move it: {reason}"
    with context.fix(Report(anchor, code, message, fixable=False, followups=[followup], caller=caller)):
        if not context.dropped(anchor, NOT_ADVERTISED_RULE):  # a silenced follow-up wants no TODO either
            _add_todo(context, source)


def _add_todo(context: FileContext, source: str) -> None:
    """A TODO line above the statement (once: a second run finds it there); never in a
    test file's tests, fixtures or helpers (ACP008: a test is removed or left, whole)."""
    if state_of_test_code(context) is not None:
        return
    statement = context.statements[-1]
    width = sum(
        len((node.indent if node.indent is not None else context.module.default_indent).expandtabs(4))
        for node in context.lineage
        if isinstance(node, cst.IndentedBlock)
    )

    def text(shown: str) -> str:
        return f"{TODO_MARK}: advertise `{shown}` per session (acp-migrate rules ACP005)"

    room = TODO_WIDTH - width - len(text(""))
    shown = source if len(source) <= room else (source[: room - 1] + "…" if room > 8 else "the list")
    comment = text(shown)
    above = list(statement.leading_lines)
    if context.module.body and statement is context.module.body[0]:
        above[:0] = context.module.header  # LibCST gives a module's first comments to its header
    if any(line.comment is not None and line.comment.value == comment for line in above):
        return
    context.add_comment(statement, comment)
