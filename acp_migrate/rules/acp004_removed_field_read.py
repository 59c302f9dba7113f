"""ACP004 slash-commands-read: code that reads the removed field.

`caps.slash_commands`, `resp.agent_capabilities.slash_commands`,
`data["agentCapabilities"]["slashCommands"]`, `getattr(caps, "slash_commands")`:
after the migration these read nothing, so a person must rewrite them (usually a
test that should now look at the per-session advertisement). Only values known to be
capabilities count: a server's own `self.slash_commands` is not this field, and
tests asserting the key's absence are already right.
"""

from __future__ import annotations

import libcst as cst

from acp_migrate.rules.acp002_capabilities_dict_key import CAPABILITY_KEYS
from acp_migrate.rules.base import (
    CAPABILITY_CLASSES,
    INITIALIZE_CLASSES,
    LEGACY_KEYS,
    Example,
    Report,
    Rule,
    all_params,
)

CAPS, CAPS_DICT, INIT, INIT_DICT = "capabilities", "capabilities dict", "initialize result", "initialize dict"
CONSTRUCTORS = frozenset({"create", "model_validate", "model_validate_json", "model_construct", "parse_obj"})
DUMPERS = frozenset({"model_dump", "dict"})


def _string(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


class RemovedFieldRead(Rule):
    code = "ACP004"
    name = "slash-commands-read"
    summary = "Code reads `slash_commands` from capabilities, where it no longer exists."
    fixable = False
    examples = (
        Example(
            before=(
                "async def test_init(agent):\n"
                "    response = await agent.initialize(protocol_version=1)\n"
                "    assert response.agent_capabilities.slash_commands\n"
            ),
        ),
    )

    def __init__(self, context) -> None:
        super().__init__(context)
        # Known kinds of local names, per function (None: module level).
        self._kinds: dict[cst.FunctionDef | None, dict[str, str]] = {}

    # -- what is this expression? ----------------------------------------------
    def _kind(self, node: cst.BaseExpression) -> str | None:
        if isinstance(node, cst.Await):
            return self._kind(node.expression)
        if isinstance(node, cst.Name):
            for scope in (self.context.function, None):
                kind = self._kinds.get(scope, {}).get(node.value)
                if kind is not None:
                    return kind
            return None
        if isinstance(node, cst.Attribute):
            return CAPS if node.attr.value in {"agent_capabilities", "agentCapabilities"} else None
        if isinstance(node, cst.Subscript) and len(node.slice) == 1:
            index = node.slice[0].slice
            if isinstance(index, cst.Index) and _string(index.value) in CAPABILITY_KEYS:
                return CAPS_DICT
            return None
        if isinstance(node, cst.Call):
            return self._call_kind(node)
        return None

    def _call_kind(self, node: cst.Call) -> str | None:
        func = node.func
        context = self.context
        if context.is_schema_class(func, CAPABILITY_CLASSES):
            return CAPS
        if context.is_schema_class(func, INITIALIZE_CLASSES):
            return INIT
        if not isinstance(func, cst.Attribute):
            return None
        method = func.attr.value
        if method in CONSTRUCTORS:
            if context.is_schema_class(func.value, CAPABILITY_CLASSES):
                return CAPS
            if context.is_schema_class(func.value, INITIALIZE_CLASSES):
                return INIT
        if method == "initialize":
            return INIT
        if method in DUMPERS:
            return {CAPS: CAPS_DICT, INIT: INIT_DICT}.get(self._kind(func.value) or "")
        if method == "get" and node.args and _string(node.args[0].value) in CAPABILITY_KEYS:
            return CAPS_DICT
        return None

    # -- remember local names ------------------------------------------------------
    def _remember(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if not isinstance(target, cst.Name):
            return
        kinds = self._kinds.setdefault(self.context.function, {})
        kind = self._kind(value) if value is not None else None
        if kind is None:
            kinds.pop(target.value, None)
        else:
            kinds[target.value] = kind

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._remember(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._remember(node.target, node.value)
        annotated = self._annotation_kind(node.annotation)
        if annotated is not None and isinstance(node.target, cst.Name):
            self._kinds.setdefault(self.context.function, {})[node.target.value] = annotated

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        kinds = self._kinds.setdefault(node, {})
        for param in all_params(node.params):
            kind = self._annotation_kind(param.annotation)
            if kind is not None:
                kinds[param.name.value] = kind

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._kinds.pop(original_node, None)

    def _annotation_kind(self, annotation: cst.Annotation | None) -> str | None:
        if annotation is None:
            return None
        if self.context.is_schema_class(annotation.annotation, CAPABILITY_CLASSES):
            return CAPS
        if self.context.is_schema_class(annotation.annotation, INITIALIZE_CLASSES):
            return INIT
        return None

    # -- the reads -------------------------------------------------------------------
    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value in LEGACY_KEYS and self._kind(node.value) == CAPS:
            self._report(node, f"`.{node.attr.value}`")

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return
        key = _string(node.slice[0].slice.value)
        if key in LEGACY_KEYS and self._kind(node.value) == CAPS_DICT:
            self._report(node, f'`["{key}"]`')

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if len(node.args) < 2 and not isinstance(func, cst.Attribute):
            return
        if isinstance(func, cst.Name) and func.value == "getattr" and len(node.args) >= 2:
            key = _string(node.args[1].value)
            if key in LEGACY_KEYS and self._kind(node.args[0].value) == CAPS:
                self._report(node, f'`getattr(..., "{key}")`')
        elif isinstance(func, cst.Attribute) and func.attr.value == "get" and node.args:
            key = _string(node.args[0].value)
            if key in LEGACY_KEYS and self._kind(func.value) == CAPS_DICT:
                self._report(node, f'`.get("{key}")`')

    def _report(self, node: cst.CSTNode, what: str) -> None:
        self.context.report(
            Report(
                node,
                self.code,
                f"{what} reads the removed capabilities field; commands are now advertised "
                "per session (setup results and `available_commands_update`)",
                fixable=False,
            )
        )
