"""ACP005 commands-not-advertised: a command list removed from `initialize` could not be
moved into the session setup handlers.

Never reported by `check`: it is what remains after `fix` removes an ACP001 keyword
or an ACP002 key whose value is not provably empty and `rules/rewire.py` cannot move
the list safely (the value uses locals of `initialize`, the class has no setup
handler or no `on_connect`, or the code is not an agent's `initialize`). `fix` then
leaves a `# acp-migrate: TODO` comment on the statement (ACP007 keeps reporting it)
and keeps the imports the list needs, so the person has what they need to finish.
"""

from __future__ import annotations

import libcst as cst

from acp_migrate.cst.names import mentions
from acp_migrate.rules.base import Example, FileContext, Report, Rule, all_params
from acp_migrate.rules.rewire import CannotRewire, rewire


class CommandsNotAdvertised(Rule):
    code = "ACP005"
    name = "commands-not-advertised"
    summary = "A command list removed from initialize must be advertised per session."
    fixable = False
    examples = (
        Example(
            before=(
                "from acp.schema import InitializeResponse\n"
                "\n"
                "\n"
                "def initialize_result(commands):\n"
                "    return InitializeResponse.create(protocol_version=1, slash_commands=commands)\n"
            ),
            after=(
                "from acp.schema import InitializeResponse\n"
                "\n"
                "\n"
                "def initialize_result(commands):\n"
                "    # acp-migrate: TODO: advertise `commands` per session; not moved automatically: "
                "it is not in an agent class's `initialize` method\n"
                "    return InitializeResponse.create(protocol_version=1)\n"
            ),
        ),
    )


def _forwards_schema_parameter(context: FileContext, value: cst.BaseExpression) -> bool:
    """True for `slash_commands=slash_commands or []` inside an owned schema `create`."""
    owned = context.schema_method()
    if owned is None or owned[1].name.value != "create":
        return False
    legacy_params = {p.name.value for p in all_params(owned[1].params)} & {
        "slash_commands",
        "slashCommands",
    }
    names = set(mentions(value))
    return bool(names) and names <= legacy_params | {"list", "tuple", "None"}


TODO_MARK = "# acp-migrate: TODO"


def commands_removed(context: FileContext, anchor: cst.CSTNode, value: cst.BaseExpression, code: str) -> list[Report]:
    """Forget `value` (and the locals that only fed it). When it carried commands, move
    them into the agent's session setup handlers; if that cannot be done safely, leave
    a TODO comment on the statement and return the ACP005 follow-up.

    `anchor` and `code` are those of the report removing `value`: when it will be
    dropped (suppressed, disabled), nothing happens, so that a class is not taken for
    rewired by a rewire that is dropped with it."""
    if context.dropped(anchor, code):
        return []
    if _forwards_schema_parameter(context, value) or context.is_provably_empty(value):
        context.drop_value(value)
        return []
    origin = context.drop_value(value)
    try:
        rewire(context, origin)
        return []
    except CannotRewire as why:
        reason = str(why)
    source = context.code(origin)
    for name in mentions(origin):
        context.keep_import(name)
    context.add_comment(
        context.statements[-1],
        f"{TODO_MARK}: advertise `{source}` per session; not moved automatically: {reason}",
    )
    return [
        Report(
            anchor,
            CommandsNotAdvertised.code,
            f"commands from `{source}` are no longer advertised at initialize and could not be "
            f"moved into the session setup handlers: {reason}; advertise them per session",
            fixable=False,
        )
    ]
