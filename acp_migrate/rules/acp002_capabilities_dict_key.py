"""ACP002 capabilities-dict-slash-commands: a `"slashCommands"` key inside the
`"agentCapabilities"` of a dict (an initialize result built by hand).

The dict may be a literal or `dict(...)` at either level (`{"agentCapabilities":
dict(slashCommands=x)}`, `dict(agentCapabilities={...})`), the capabilities given to an
initialize result as a dict (`InitializeResponse(agent_capabilities=dict(...))`, which
pydantic validates into them), a local the function places
under `"agentCapabilities"` (`caps = {...}; ...; {"agentCapabilities": caps}`), or the
key may be set on a value known to be a capabilities dict
(`result["agentCapabilities"]["slashCommands"] = x`, `data["slashCommands"] = x` on a
`model_dump()`, `caps["slashCommands"] = x` on such a local): the entry goes, or the statement,
and its commands move to the agent's `CommandAdvertiser` as ACP001's do. Dicts
passed straight to `model_validate` and friends are left alone: they are old-JSON
fixtures proving the key is ignored on the way in, and so are, in test files, dicts
held by a name (`OLD = {...}`) that its scope only ever gives to one. A test file that asserts the key's
absence (`"slashCommands" not in out["agentCapabilities"]`) tests code stripping it
from old agents' answers (a proxy, a client): its dicts are those answers, left alone.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from acp_migrate.rules.base import NO_FIELD_SITE, Example, Rule
from acp_migrate.rules.shared import (
    ADVERTISER_CLASS,
    ADVERTISES,
    CAPABILITY_KEYS,
    CAPS_DICT,
    INITIALIZE_CLASSES,
    LEGACY_KEYS,
    LEGACY_TOKENS,
)

if TYPE_CHECKING:
    import libcst as cst

# pydantic's models' and `TypeAdapter`'s (`TypeAdapter(InitializeResponse).validate_python(old)`).
PARSING_METHODS = frozenset(
    {"model_validate", "model_validate_json", "parse_obj", "validate", "validate_python", "validate_json"}
)
INITIALIZE_BUILDERS = frozenset({"create", "model_construct"})


class CapabilitiesDictKey(Rule):
    code = "ACP002"
    name = "capabilities-dict-slash-commands"
    summary = '`"slashCommands"` inside `"agentCapabilities"` of a dict advertises commands at initialize.'
    fixable = True
    triggers = LEGACY_TOKENS
    screen_words = LEGACY_KEYS
    # dicts given to a parsing method are old JSON, left alone
    screen_harmless = NO_FIELD_SITE
    names_looked_up = frozenset({ADVERTISER_CLASS})  # the rewire asks whether it is imported
    examples = (
        Example(
            before='result = {"agentCapabilities": {"loadSession": True, "slashCommands": []}}\n',
            after='result = {"agentCapabilities": {"loadSession": True}}\n',
        ),
        Example(
            before='result = dict(agentCapabilities=dict(loadSession=True, slashCommands=[]))\n',
            after='result = dict(agentCapabilities=dict(loadSession=True))\n',
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
        from acp_migrate.rules.shared.kinds import LocalKinds

        super().__init__(context)
        self.kinds = LocalKinds(context)
        # Dicts (literals, `dict(...)` calls) passed to a parsing method, and how deep
        # the traversal is inside one.
        self._inbound: set[cst.CSTNode] = set()
        self._inbound_depth = 0
        self._parsed_names: dict[cst.CSTNode, tuple] = {}  # scope -> (mentions, parsed mentions)
        self._stripping: bool | None = None  # a test file of code stripping the key

    # -- local names -------------------------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.kinds.entered(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.kinds.left(original_node)

    # -- dicts built with the key ----------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        import libcst as cst

        from acp_migrate.rules.shared.syntax import is_dict_call

        if node in self._inbound:
            self._inbound_depth += 1
        if self._inbound_depth:
            return
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in PARSING_METHODS:
            self._inbound.update(
                arg.value for arg in node.args if isinstance(arg.value, cst.Dict) or is_dict_call(arg.value)
            )
        # `dict(agentCapabilities={...})`, and `InitializeResponse(agent_capabilities=dict(...))`:
        # pydantic validates the dict into the capabilities.
        if is_dict_call(node) or self._builds_initialize_result(node):
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value in CAPABILITY_KEYS:
                    self._remove_legacy_keys(arg.value)

    def leave_Call(self, original_node: cst.Call) -> None:
        if original_node in self._inbound:
            self._inbound_depth -= 1

    def visit_Dict(self, node: cst.Dict) -> None:
        from acp_migrate.rules.shared.syntax import string_key

        if node in self._inbound:
            self._inbound_depth += 1
        if self._inbound_depth:
            return
        for element in node.elements:
            if string_key(element) in CAPABILITY_KEYS:
                self._remove_legacy_keys(element.value)

    def leave_Dict(self, original_node: cst.Dict) -> None:
        if original_node in self._inbound:
            self._inbound_depth -= 1

    def _builds_initialize_result(self, node: cst.Call) -> bool:
        """`InitializeResponse(...)` or its `create` / `model_construct` (not a parsing method)."""
        import libcst as cst

        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in INITIALIZE_BUILDERS:
            func = func.value
        return self.context.is_schema_class(func, INITIALIZE_CLASSES)

    def _tests_stripping(self) -> bool:
        """A test file asserting the key's absence (`"slashCommands" not in out[...]`) tests
        code that strips it from old agents' answers (a proxy, a client): its dicts
        holding the key are those old answers, left alone."""
        if self._stripping is None:
            import libcst as cst

            from acp_migrate.cst.walk import walk
            from acp_migrate.rules.shared.legacy_tests.files import is_test_path
            from acp_migrate.rules.shared.syntax import string_value

            found = False

            class Absence(cst.CSTVisitor):
                def visit_Comparison(self, node: cst.Comparison) -> None:
                    nonlocal found
                    found = found or (
                        string_value(node.left) in LEGACY_KEYS
                        and isinstance(node.comparisons[0].operator, cst.NotIn)
                    )

            if is_test_path(self.context.path, self.context.settings.test_files):
                walk(self.context.module, Absence())
            self._stripping = found
        return self._stripping

    def _only_parsed(self, node: cst.Assign) -> bool:
        """In a test file, `OLD = {...}` (or `dict(...)`) where every other mention of `OLD`
        in its scope is an argument given to a parsing method: old JSON kept to prove it
        still parses (elsewhere it may be how a server builds its answer)."""
        import libcst as cst

        from acp_migrate.cst.names import mentions
        from acp_migrate.cst.walk import walk
        from acp_migrate.rules.shared.legacy_tests.files import is_test_path
        from acp_migrate.rules.shared.syntax import is_dict_call

        if not (isinstance(node.value, cst.Dict) or is_dict_call(node.value)):
            return False
        if not is_test_path(self.context.path, self.context.settings.test_files):
            return False
        names = [target.target.value for target in node.targets if isinstance(target.target, cst.Name)]
        if not names or len(names) != len(node.targets):
            return False
        scope = self.context.function or self.context.module
        if scope not in self._parsed_names:
            parsed: Counter[str] = Counter()

            class Parsed(cst.CSTVisitor):
                def visit_Call(self, call: cst.Call) -> None:
                    if isinstance(call.func, cst.Attribute) and call.func.attr.value in PARSING_METHODS:
                        parsed.update(a.value.value for a in call.args if isinstance(a.value, cst.Name))

            walk(scope, Parsed())
            self._parsed_names[scope] = (mentions(scope), parsed)
        total, parsed = self._parsed_names[scope]
        return all(parsed[name] and total[name] == parsed[name] + 1 for name in names)

    @staticmethod
    def _is_dict_call(node: cst.BaseExpression) -> bool:
        from acp_migrate.rules.shared.syntax import is_dict_call

        return is_dict_call(node)

    def _remove_legacy_keys(self, capabilities: cst.BaseExpression) -> None:
        import libcst as cst

        from acp_migrate.rules.shared.advertised import remove_advertised
        from acp_migrate.rules.shared.syntax import is_dict_call, string_key

        if isinstance(capabilities, cst.Dict):
            found = [(element, string_key(element), element.value) for element in capabilities.elements]
        elif is_dict_call(capabilities):
            assert isinstance(capabilities, cst.Call)
            found = [(arg, arg.keyword.value if arg.keyword else None, arg.value) for arg in capabilities.args]
        else:
            return
        if self._tests_stripping():
            return
        for anchor, key, value in found:
            if key in LEGACY_KEYS:
                remove_advertised(
                    self.context,
                    anchor,
                    value,
                    self.code,
                    f'"{key}" in "agentCapabilities" {ADVERTISES}',
                )

    # -- the key set on a capabilities dict --------------------------------------------------
    def visit_Assign(self, node: cst.Assign) -> None:
        import libcst as cst

        if self._only_parsed(node):
            self._inbound.add(node.value)
        self._stores(node, node.value)
        self.kinds.assigned(node)
        # `caps = {...}` later placed under "agentCapabilities": its entries are the capabilities'.
        if any(self.kinds.is_placed(target.target) for target in node.targets) and not self._inbound_depth:
            value = node.value
            if isinstance(value, cst.Dict) or isinstance(value, cst.Call) and self._is_dict_call(value):
                self._remove_legacy_keys(value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._stores(node, node.value)
        self.kinds.assigned(node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._stores(node, node.value)

    def _stores(self, node: cst.Assign | cst.AnnAssign | cst.AugAssign, value: cst.BaseExpression) -> None:
        import libcst as cst

        from acp_migrate.rules.shared.advertised import (
            assigned_value,
            keep_advertised,
            remove_advertised,
            sole_statement,
        )
        from acp_migrate.rules.shared.syntax import assignment_targets, subscript_key

        legacy = [
            target
            for target in assignment_targets(node)
            if isinstance(target, cst.Subscript)
            and subscript_key(target) in LEGACY_KEYS
            and self.kinds.kind(target.value) == CAPS_DICT
        ]
        if not legacy or self._inbound_depth:
            return
        target = legacy[0]
        message = f'`["{subscript_key(target)}"] = ...` on "agentCapabilities" {ADVERTISES}'
        if isinstance(node, cst.Assign):
            plain = len(node.targets) == 1 and node.targets[0].target is target
        else:
            plain = node.target is target
        statement = sole_statement(self.context, node)
        if plain and statement is not None:
            remove_advertised(self.context, statement, value, self.code, message)
            return
        reason = "the statement does more than set the key" if not plain else "it shares its line with another statement"
        source = self.context.code(assigned_value(node, target, value))
        keep_advertised(self.context, target, source, self.code, message, reason)
