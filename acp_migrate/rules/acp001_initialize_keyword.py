"""ACP001 initialize-slash-commands: `slash_commands=` given to AgentCapabilities or
InitializeResponse.create advertises commands at `initialize`.

ACP lists commands per session (session setup results and `available_commands_update`
notifications), so the keyword goes. Classes are recognised through imports and
aliases (`from acp.schema import AgentCapabilities as Caps`, `import acp.schema as s`)
or by being defined in the module; other classes' `slash_commands` are left alone.
"""

from __future__ import annotations

import libcst as cst

from acp_migrate.rules.acp005_commands_not_advertised import remove_advertised
from acp_migrate.rules.base import (
    CAPABILITY_CLASSES,
    LEGACY_KEYS,
    SCHEMA_CLASSES,
    Example,
    FileContext,
    Rule,
)


def is_legacy_factory(context: FileContext, func: cst.BaseExpression) -> bool:
    """`AgentCapabilities(...)`, `AgentCapabilities.create(...)`, `InitializeResponse.create(...)`."""
    if context.is_schema_class(func, CAPABILITY_CLASSES):
        return True
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "create"
        and context.is_schema_class(func.value, SCHEMA_CLASSES)
    )


class InitializeKeyword(Rule):
    code = "ACP001"
    name = "initialize-slash-commands"
    summary = "`slash_commands=` in AgentCapabilities / InitializeResponse.create advertises commands at initialize."
    fixable = True
    examples = (
        Example(
            before=(
                "from acp.schema import AgentCapabilities as Caps\n"
                "\n"
                "caps = Caps(load_session=True, slash_commands=[])\n"
            ),
            after=(
                "from acp.schema import AgentCapabilities as Caps\n"
                "\n"
                "caps = Caps(load_session=True)\n"
            ),
        ),
        Example(
            before=(
                "import acp.schema as s\n"
                "\n"
                "def build():\n"
                "    return s.InitializeResponse.create(\n"
                "        protocol_version=1,\n"
                "        slash_commands=None,  # advertised at init\n"
                "    )\n"
            ),
            after=(
                "import acp.schema as s\n"
                "\n"
                "def build():\n"
                "    return s.InitializeResponse.create(\n"
                "        protocol_version=1,\n"
                "    )\n"
            ),
        ),
        Example(before="server = ServerConfig(slash_commands=['plan'])\n", flagged=False),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if not is_legacy_factory(self.context, node.func):
            return
        for arg in node.args:
            if arg.keyword is None or arg.keyword.value not in LEGACY_KEYS:
                continue
            remove_advertised(
                self.context,
                arg,
                arg.value,
                self.code,
                f"`{arg.keyword.value}=` advertises commands at initialize; ACP advertises them per session",
                caller=True,
            )
