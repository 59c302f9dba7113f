"""ACP005 commands-not-advertised: a removed command list must be advertised per session.

Never reported on its own: it is what remains after `fix` removes an ACP001 keyword
or an ACP002 key whose value is not provably empty. The codemod cannot yet move the
list into the session setup handlers, so a person has to.
"""

from __future__ import annotations

import libcst as cst

from acp_migrate.rules.base import Example, FileContext, Report, Rule, all_params


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
                "class Agent:\n"
                "    async def initialize(self, protocol_version, **kwargs):\n"
                "        skill_commands = self.get_skill_commands()\n"
                "        return InitializeResponse.create(protocol_version=1, slash_commands=skill_commands)\n"
            ),
            after=(
                "from acp.schema import InitializeResponse\n"
                "\n"
                "class Agent:\n"
                "    async def initialize(self, protocol_version, **kwargs):\n"
                "        return InitializeResponse.create(protocol_version=1)\n"
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
    names = {n.value for n in _names(value)}
    return bool(names) and names <= legacy_params | {"list", "tuple", "None"}


def _names(node: cst.CSTNode) -> list[cst.Name]:
    found: list[cst.Name] = []

    class Collector(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.append(name)

        def visit_Attribute(self, attribute: cst.Attribute) -> bool:
            attribute.value.visit(self)
            return False

    node.visit(Collector())
    return found


def commands_removed(context: FileContext, anchor: cst.CSTNode, value: cst.BaseExpression) -> list[Report]:
    """Forget `value` (and the locals that only fed it); return the ACP005 follow-up
    when it carried commands."""
    if _forwards_schema_parameter(context, value) or context.is_provably_empty(value):
        context.drop_value(value)
        return []
    source = context.drop_value(value)
    return [
        Report(
            anchor,
            CommandsNotAdvertised.code,
            f"commands from `{source}` are no longer advertised; they must be advertised "
            "per session (session setup results or `available_commands_update`)",
            fixable=False,
        )
    ]
