"""ACP002 capabilities-dict-slash-commands: a `"slashCommands"` key inside the
`"agentCapabilities"` of a dict literal (an initialize result built by hand).

Dict literals passed straight to `model_validate` and friends are left alone: they are
old-JSON fixtures proving the key is ignored on the way in.
"""

from __future__ import annotations

import libcst as cst

from acp_migrate.rules.acp005_commands_not_advertised import remove_advertised
from acp_migrate.rules.base import LEGACY_KEYS, Example, Rule

CAPABILITY_KEYS = frozenset({"agentCapabilities", "agent_capabilities"})
PARSING_METHODS = frozenset({"model_validate", "model_validate_json", "parse_obj", "validate"})


def string_key(element: cst.BaseDictElement) -> str | None:
    if isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString):
        value = element.key.evaluated_value
        return value if isinstance(value, str) else None
    return None


class CapabilitiesDictKey(Rule):
    code = "ACP002"
    name = "capabilities-dict-slash-commands"
    summary = '`"slashCommands"` inside `"agentCapabilities"` of a dict literal advertises commands at initialize.'
    fixable = True
    examples = (
        Example(
            before='result = {"agentCapabilities": {"loadSession": True, "slashCommands": []}}\n',
            after='result = {"agentCapabilities": {"loadSession": True}}\n',
        ),
        Example(
            before=(
                "from acp.schema import InitializeResponse\n"
                "\n"
                'InitializeResponse.model_validate({"agentCapabilities": {"slashCommands": []}})\n'
            ),
            flagged=False,
        ),
    )

    def __init__(self, context) -> None:
        super().__init__(context)
        self._inbound: set[cst.Dict] = set()
        self._inbound_depth = 0

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in PARSING_METHODS:
            self._inbound.update(arg.value for arg in node.args if isinstance(arg.value, cst.Dict))

    def visit_Dict(self, node: cst.Dict) -> None:
        if node in self._inbound:
            self._inbound_depth += 1
        if self._inbound_depth:
            return
        for element in node.elements:
            if string_key(element) in CAPABILITY_KEYS and isinstance(element.value, cst.Dict):
                self._remove_legacy_keys(element.value)

    def leave_Dict(self, original_node: cst.Dict) -> None:
        if original_node in self._inbound:
            self._inbound_depth -= 1

    def _remove_legacy_keys(self, capabilities: cst.Dict) -> None:
        for element in capabilities.elements:
            key = string_key(element)
            if key not in LEGACY_KEYS:
                continue
            remove_advertised(
                self.context,
                element,
                element.value,
                self.code,
                f'"{key}" in "agentCapabilities" advertises commands at initialize; ACP advertises them per session',
            )
