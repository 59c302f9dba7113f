"""What an expression holds, as far as the removed field goes: ACP capabilities, an
initialize result, or their dict forms (a dump, a wire payload).

Not a rule: the one value inference of the rules that find the field set (ACP001's
`caps.slash_commands = x`, ACP002's `data["agentCapabilities"]["slashCommands"] = x`)
and read (ACP004), and of the test analysis (`legacy_tests.reads`, ACP008). Only values
known to be capabilities count: a server's own `self.slash_commands` is not the field.
What names hold is followed per function, from their assignments and their parameters'
annotations: by the rules as their traversal goes (`LocalKinds`), by the test analysis
a whole function at a time.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from acp_migrate.cst.names import last_part
from acp_migrate.rules.context import FileContext, all_params
from acp_migrate.rules.shared import (
    CAPABILITY_CLASSES,
    CAPABILITY_KEYS,
    CAPS,
    CAPS_DICT,
    DUMPERS,
    INIT,
    INIT_DICT,
    INITIALIZE_CLASSES,
)
from acp_migrate.rules.shared.syntax import assignment_targets, is_dict_call, string_key, string_value, subscript_key

CONSTRUCTORS = frozenset(
    {"create", "model_validate", "model_validate_json", "model_validate_strings", "model_construct", "parse_obj"}
)
# Attributes of a capabilities value (or class) that map its field names: reading the
# field's name from one is reading the field.
FIELD_MAPS = frozenset({"model_fields", "__fields__", "model_fields_set", "__dict__"})

# A model's JSON text, and what reads it back into a dict.
JSON_DUMPERS = frozenset({"model_dump_json", "json"})
JSON_LOADERS = frozenset({"json.loads", "orjson.loads", "ujson.loads"})

SETUP_METHODS = frozenset({"__init__", "setUp", "asyncSetUp", "setUpClass", "setup_method", "setup_class"})


def self_attribute_kinds(node: cst.ClassDef, kind: Callable[[cst.BaseExpression], str | None]) -> dict[str, str]:
    """The kind (`kind` of each value) of each `self.<name>` a class's set-up methods store
    one kind of value into, and only that: a unittest test reads its capabilities there."""
    kinds: dict[str, str] = {}
    for name, values in _self_attribute_values(node).items():
        found = {kind(value) for value in values}
        if len(found) == 1 and None not in found:
            kinds[name] = found.pop()
    return kinds


def _self_attribute_values(node: cst.ClassDef) -> dict[str, list[cst.BaseExpression]]:
    """What a class's set-up methods (`__init__`, `setUp`, `setup_method`, ...) store
    into `self.<name>` (or `cls.<name>`), by name: a local name assigned once before in
    the method stands for its value."""
    found: dict[str, list[cst.BaseExpression]] = {}
    for method in node.body.body:
        if not isinstance(method, cst.FunctionDef) or method.name.value not in SETUP_METHODS:
            continue
        if not isinstance(method.body, cst.IndentedBlock) or not method.params.params:
            continue
        owner = method.params.params[0].name.value
        local: dict[str, cst.BaseExpression] = {}
        for statement in method.body.body:
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                if not isinstance(small, (cst.Assign, cst.AnnAssign)) or small.value is None:
                    continue
                value = small.value
                if isinstance(value, cst.Name) and value.value in local:
                    value = local[value.value]
                for target in assignment_targets(small):
                    if isinstance(target, cst.Name):
                        local[target.value] = value
                    elif isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
                        if target.value.value == owner:
                            found.setdefault(target.attr.value, []).append(value)
    return found


class ValueKinds:
    """What an expression holds: CAPS, INIT, CAPS_DICT, INIT_DICT, or None (unknown).
    What a name, a `self.<name>` and a call of one of the module's functions hold is
    the subclass's to say: it knows where the expression is."""

    def resolve(self, node: cst.BaseExpression) -> str | None:
        raise NotImplementedError

    def name_kind(self, node: cst.Name) -> str | None:
        raise NotImplementedError

    def self_attribute_kind(self, node: cst.Attribute) -> str | None:
        raise NotImplementedError

    def function_kind(self, name: str) -> str | None:
        """What a call of `name`, a plain name that is no schema class, returns."""
        return None

    def is_schema(self, node: cst.BaseExpression, names: frozenset[str]) -> bool:
        return last_part(self.resolve(node)) in names

    def kind(self, node: cst.BaseExpression) -> str | None:
        if isinstance(node, cst.Await):
            return self.kind(node.expression)
        if isinstance(node, cst.Name):
            return self.name_kind(node)
        if isinstance(node, cst.Attribute):
            if node.attr.value in CAPABILITY_KEYS:
                return CAPS
            if node.attr.value in FIELD_MAPS and self._names_fields(node.value):
                return CAPS_DICT
            return self.self_attribute_kind(node)
        if isinstance(node, cst.Subscript):
            return CAPS_DICT if subscript_key(node) in CAPABILITY_KEYS else None
        if isinstance(node, cst.Call):
            return self._call_kind(node)
        return None

    def annotation_kind(self, annotation: cst.Annotation | None) -> str | None:
        if annotation is None:
            return None
        if self.is_schema(annotation.annotation, CAPABILITY_CLASSES):
            return CAPS
        if self.is_schema(annotation.annotation, INITIALIZE_CLASSES):
            return INIT
        return None

    def _names_fields(self, node: cst.BaseExpression) -> bool:
        """A capabilities value, its class, or `type(value)`."""
        if self.kind(node) == CAPS or self.is_schema(node, CAPABILITY_CLASSES):
            return True
        return (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Name)
            and node.func.value == "type"
            and len(node.args) == 1
            and self.kind(node.args[0].value) == CAPS
        )

    def _call_kind(self, node: cst.Call) -> str | None:
        func = node.func
        if self.is_schema(func, CAPABILITY_CLASSES):
            return CAPS
        if self.is_schema(func, INITIALIZE_CLASSES):
            return INIT
        if self.resolve(func) in JSON_LOADERS and node.args:
            return self._loaded_kind(node.args[0].value)
        if isinstance(func, cst.Name):
            if func.value in {"vars", "dir"} and len(node.args) == 1:
                return CAPS_DICT if self.kind(node.args[0].value) == CAPS else None
            return self.function_kind(func.value) or self._run_kind(node)
        if not isinstance(func, cst.Attribute):
            return None
        method = func.attr.value
        if method in CONSTRUCTORS:
            if self.is_schema(func.value, CAPABILITY_CLASSES):
                return CAPS
            if self.is_schema(func.value, INITIALIZE_CLASSES):
                return INIT
        if method == "initialize":
            return INIT
        if method == "run":
            return self._run_kind(node)
        if method in DUMPERS:
            return {CAPS: CAPS_DICT, INIT: INIT_DICT}.get(self.kind(func.value) or "")
        if method in {"model_copy", "copy"}:  # a copy is of the same kind
            return self.kind(func.value)
        if method == "get" and node.args and string_value(node.args[0].value) in CAPABILITY_KEYS:
            return CAPS_DICT
        return None

    def _loaded_kind(self, text: cst.BaseExpression) -> str | None:
        """`json.loads(caps.model_dump_json())` is the dict `caps.model_dump()` is."""
        if isinstance(text, cst.Call) and isinstance(text.func, cst.Attribute) and text.func.attr.value in JSON_DUMPERS:
            return {CAPS: CAPS_DICT, INIT: INIT_DICT}.get(self.kind(text.func.value) or "")
        return None

    def _run_kind(self, node: cst.Call) -> str | None:
        """`asyncio.run(coroutine)` holds what the coroutine returns."""
        if node.args and self.resolve(node.func) in ("asyncio.run", "run"):
            return self.kind(node.args[0].value)
        return None


class LocalKinds(ValueKinds):
    """What expressions hold where a rule's traversal is. The rule that owns it keeps the
    kinds of local names up to date: it calls `assigned` from its `visit_Assign` /
    `visit_AnnAssign` and `entered` / `left` from its `visit_FunctionDef` /
    `leave_FunctionDef`."""

    def __init__(self, context: FileContext) -> None:
        self.context = context
        # Known kinds of local names, per function (None: module level).
        self._kinds: dict[cst.FunctionDef | None, dict[str, str]] = {}
        # Local names a function places under "agentCapabilities" (`{"agentCapabilities":
        # caps}`): capabilities dicts wherever they are built.
        self._placed: dict[cst.FunctionDef, set[str]] = {}
        # Kinds of `self.<name>` per class, from its set-up methods (read when first asked).
        self._attributes: dict[cst.ClassDef, dict[str, str]] = {}

    def resolve(self, node: cst.BaseExpression) -> str | None:
        return self.context.resolve(node)

    def name_kind(self, node: cst.Name) -> str | None:
        for scope in (self.context.function, None):
            kind = self._kinds.get(scope, {}).get(node.value)
            if kind is not None:
                return kind
        return CAPS_DICT if self.is_placed(node) else None

    def self_attribute_kind(self, node: cst.Attribute) -> str | None:
        """`self.caps` in a method of a class whose set-up stores capabilities there."""
        function, scopes = self.context.function, self.context.scopes
        if function is None or len(scopes) < 2 or not isinstance(scopes[-2], cst.ClassDef):
            return None
        params = function.params.params
        if not isinstance(node.value, cst.Name) or not params or node.value.value != params[0].name.value:
            return None
        owner = scopes[-2]
        if owner not in self._attributes:
            self._attributes[owner] = {}  # (a set-up value reading `self.<name>` itself)
            self._attributes[owner] = self_attribute_kinds(owner, self.kind)
        return self._attributes[owner].get(node.attr.value)

    # -- remember local names ------------------------------------------------------
    def _remember(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if not isinstance(target, cst.Name):
            return
        kinds = self._kinds.setdefault(self.context.function, {})
        kind = self.kind(value) if value is not None else None
        if kind is None:
            kinds.pop(target.value, None)
        else:
            kinds[target.value] = kind

    def assigned(self, node: cst.Assign | cst.AnnAssign) -> None:
        if isinstance(node, cst.Assign):
            for target in node.targets:
                self._remember(target.target, node.value)
            return
        self._remember(node.target, node.value)
        annotated = self.annotation_kind(node.annotation)
        if annotated is not None and isinstance(node.target, cst.Name):
            self._kinds.setdefault(self.context.function, {})[node.target.value] = annotated

    def is_placed(self, name: cst.BaseExpression) -> bool:
        """A local the current function puts under "agentCapabilities"."""
        function = self.context.function
        if not isinstance(name, cst.Name) or function is None:
            return False
        placed = self._placed.get(function)
        if placed is None:  # read when first asked: most functions never are
            placed = self._placed[function] = placed_names(function)
        return name.value in placed

    def entered(self, node: cst.FunctionDef) -> None:
        kinds = self._kinds.setdefault(node, {})
        for param in all_params(node.params):
            kind = self.annotation_kind(param.annotation)
            if kind is not None:
                kinds[param.name.value] = kind

    def left(self, node: cst.FunctionDef) -> None:
        self._kinds.pop(node, None)
        self._placed.pop(node, None)


def placed_names(function: cst.FunctionDef) -> set[str]:
    """Names `function` puts under "agentCapabilities": `{"agentCapabilities": caps}`,
    `dict(agentCapabilities=caps)`, `result["agentCapabilities"] = caps`."""
    from acp_migrate.cst.walk import walk

    names: set[str] = set()

    class Placements(cst.CSTVisitor):
        def visit_DictElement(self, node: cst.DictElement) -> None:
            if string_key(node) in CAPABILITY_KEYS and isinstance(node.value, cst.Name):
                names.add(node.value.value)

        def visit_Call(self, node: cst.Call) -> None:
            if is_dict_call(node):
                for arg in node.args:
                    placed = arg.keyword is not None and arg.keyword.value in CAPABILITY_KEYS
                    if placed and isinstance(arg.value, cst.Name):
                        names.add(arg.value.value)

        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                subscript = target.target
                if (
                    isinstance(subscript, cst.Subscript)
                    and subscript_key(subscript) in CAPABILITY_KEYS
                    and isinstance(node.value, cst.Name)
                ):
                    names.add(node.value.value)

    walk(function.body, Placements())
    return names
