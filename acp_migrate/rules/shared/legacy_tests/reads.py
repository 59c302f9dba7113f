"""Reading the removed field in test code: what a test's values hold (capabilities, an
initialize result, their dicts: the inference of `shared.kinds`, given what a test
function's names hold), and where the field is read from them.

A *field reference*: reading the field from a value known to be capabilities or an
initialize result (`caps.slash_commands`, `data["slashCommands"]`,
`getattr(caps, "slash_commands")`, `hasattr(...)`, `.get(...)`, `"slashCommands" in
data`), or a name computed from one (or a fixture of the file that reads it). An
*absence* reference says the field is not there (`not hasattr(...)`, `... not in
data`, `getattr(caps, "slash_commands", None) is None`, `data.get(...) is None`, a
read inside `pytest.raises(...)`): correct code, never about the removed behaviour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from acp_migrate.cst.names import ImportTable
from acp_migrate.cst.walk import walk
from acp_migrate.rules.shared import CAPABILITY_CLASSES, CAPS, CAPS_DICT, INITIALIZE_CLASSES, LEGACY_KEYS
from acp_migrate.rules.shared.kinds import ValueKinds, placed_names, self_attribute_kinds
from acp_migrate.rules.shared.legacy_tests.syntax import Returns, assignments, is_name, params, raises
from acp_migrate.rules.shared.syntax import string_value, subscript_key

if TYPE_CHECKING:
    from acp_migrate.rules.context import FileContext


@dataclass
class FieldRef:
    node: cst.CSTNode
    absent: bool
    base: cst.BaseExpression | None  # what the field is read from


class TestValues:
    """What the values of one test file's functions hold, and their field references."""

    __test__ = False  # not a pytest class, whatever its name

    def __init__(self, context: FileContext, imports: ImportTable, functions: dict[str, cst.FunctionDef]) -> None:
        self.context = context
        self.module = context.module
        self.imports = imports
        self.functions = functions  # the module-level functions (fixtures, helpers, tests)
        self._return_kinds: dict[str, str | None] = {}
        self._field_functions: dict[str, bool] = {}

    def resolve(self, node: cst.BaseExpression) -> str | None:
        return self.imports.resolve(node, local_names=self.context.defined_classes)

    def schema(self, node: cst.BaseExpression, names: frozenset[str]) -> bool:
        return self.kinds({}).is_schema(node, names)

    def kinds(self, env: dict[str, str]) -> _FunctionKinds:
        return _FunctionKinds(self, env)

    def kind(self, node: cst.BaseExpression, env: dict[str, str]) -> str | None:
        return self.kinds(env).kind(node)

    def environment(self, function: cst.FunctionDef, owner: cst.ClassDef | None = None) -> dict[str, str]:
        """Kinds of the names `function` reads; `owner`: its test class, whose set-up
        methods give `self.<name>` (keyed `self.<name>`). A name the function puts under
        "agentCapabilities" holds a capabilities dict unless it is known to hold more."""
        placed = dict.fromkeys(placed_names(function), CAPS_DICT)
        env: dict[str, str] = dict(placed)
        if owner is not None and function.params.params:
            me = function.params.params[0].name.value
            for name, kind in self_attribute_kinds(owner, lambda value: self.kind(value, {})).items():
                env[f"{me}.{name}"] = kind
        for param in params(function):
            kind = self.kinds({}).annotation_kind(param.annotation)
            if kind is None and param.name.value in self.functions and param.name.value != function.name.value:
                kind = self.return_kind(param.name.value)  # a fixture of this file
            if kind is not None:
                env[param.name.value] = kind
        for target, value in assignments(function):
            kind = self.kind(value, env) if value is not None else None
            kind = kind or placed.get(target)
            if kind is None:
                env.pop(target, None)
            else:
                env[target] = kind
        return env

    def return_kind(self, name: str) -> str | None:
        if name not in self._return_kinds:
            self._return_kinds[name] = None  # (recursion)
            function = self.functions[name]
            kind = self.kinds({}).annotation_kind(function.returns)
            # Only a body `check` keeps is read: it sees no other.
            if kind is None and self.context.kept_by_check(self.module.code_for_node(function).encode()):
                env = self.environment(function)
                finder = Returns()
                walk(function.body, finder)
                kind = next((k for value in finder.values if (k := self.kind(value, env)) is not None), None)
            self._return_kinds[name] = kind
        return self._return_kinds[name]

    def reads_field(self, name: str) -> bool:
        """A module-level function of the file (a fixture) whose body reads the field."""
        if name not in self._field_functions:
            self._field_functions[name] = False  # (recursion)
            function = self.functions[name]
            env = self.environment(function)
            self._field_functions[name] = any(not r.absent for r in self.refs(function.body, env))
        return self._field_functions[name]

    def refs(self, node: cst.CSTNode, env: dict[str, str]) -> list[FieldRef]:
        finder = _RefFinder(self, env)
        walk(node, finder)
        return finder.refs


class _FunctionKinds(ValueKinds):
    """What the values of one function of a test file hold: `env`, the kinds of its
    names (`self.<name>` keyed so), from `TestValues.environment`."""

    def __init__(self, values: TestValues, env: dict[str, str]) -> None:
        self.values = values
        self.env = env

    def resolve(self, node: cst.BaseExpression) -> str | None:
        return self.values.resolve(node)

    def name_kind(self, node: cst.Name) -> str | None:
        return self.env.get(node.value)

    def self_attribute_kind(self, node: cst.Attribute) -> str | None:
        return self.env.get(f"{node.value.value}.{node.attr.value}") if isinstance(node.value, cst.Name) else None

    def function_kind(self, name: str) -> str | None:
        # A fixture or helper of the file.
        return self.values.return_kind(name) if name in self.values.functions else None


class _RefFinder(cst.CSTVisitor):
    """Field references below a node, each with whether it asserts absence."""

    def __init__(self, tests: TestValues, env: dict[str, str]) -> None:
        self.tests = tests
        self.env = env
        self.stack: list[cst.CSTNode] = []
        self.refs: list[FieldRef] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        ref = self._ref(node)
        if ref is not None:
            self.refs.append(ref)
        self.stack.append(node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.stack.pop()

    def _ref(self, node: cst.CSTNode) -> FieldRef | None:
        kind = self.tests.kind
        env = self.env
        if isinstance(node, cst.Attribute):
            if node.attr.value in LEGACY_KEYS and kind(node.value, env) == CAPS:
                return FieldRef(node, self._raises_around(), node.value)
        elif isinstance(node, cst.Subscript):
            if subscript_key(node) in LEGACY_KEYS and kind(node.value, env) == CAPS_DICT:
                return FieldRef(node, self._raises_around(), node.value)
        elif isinstance(node, cst.Comparison):
            if string_value(node.left) in LEGACY_KEYS and len(node.comparisons) == 1:
                target = node.comparisons[0]
                if isinstance(target.operator, cst.NotIn):
                    return FieldRef(node, True, None)
                if isinstance(target.operator, cst.In) and kind(target.comparator, env) == CAPS_DICT:
                    return FieldRef(node, self._negated(), target.comparator)
        elif isinstance(node, cst.Call):
            return self._call_ref(node)
        elif isinstance(node, cst.Arg):
            if node.keyword is not None and node.keyword.value in LEGACY_KEYS and self._raises_around():
                # `pytest.raises(...)` around a legacy keyword: the field's validation is tested.
                return FieldRef(node, False, None)
        return None

    def _call_ref(self, node: cst.Call) -> FieldRef | None:
        func, args = node.func, node.args
        kind, env = self.tests.kind, self.env
        if isinstance(func, cst.Name):
            if func.value in ("getattr", "hasattr") and len(args) >= 2 and string_value(args[1].value) in LEGACY_KEYS:
                if kind(args[0].value, env) == CAPS:
                    if func.value == "hasattr":
                        absent = self._negated()
                    else:  # without a default, getattr raises: only a default can say "absent"
                        absent = len(args) > 2 and self._defaulted(args[2].value)
                    return FieldRef(node, absent or self._raises_around(), args[0].value)
            return None
        if not isinstance(func, cst.Attribute):
            return None
        method = func.attr.value
        if (
            method == "get"
            and args
            and string_value(args[0].value) in LEGACY_KEYS
            and kind(func.value, env) == CAPS_DICT
        ):
            default = args[1].value if len(args) > 1 else cst.Name("None")
            return FieldRef(node, self._defaulted(default), func.value)
        if method in ("assertIn", "assertNotIn") and len(args) >= 2 and string_value(args[0].value) in LEGACY_KEYS:
            if method == "assertNotIn":
                return FieldRef(node, True, None)
            if kind(args[1].value, env) == CAPS_DICT:
                return FieldRef(node, False, args[1].value)
        return None

    def _parent(self, up: int = 1) -> cst.CSTNode | None:
        return self.stack[-up] if len(self.stack) >= up else None

    def _assert_method(self, names: tuple[str, ...]) -> bool:
        arg, call = self._parent(1), self._parent(2)
        return (
            isinstance(arg, cst.Arg)
            and isinstance(call, cst.Call)
            and isinstance(call.func, cst.Attribute)
            and call.func.attr.value in names
        )

    def _negated(self) -> bool:
        parent = self._parent()
        if isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not):
            return True
        if isinstance(parent, cst.Comparison) and len(parent.comparisons) == 1:
            target = parent.comparisons[0]
            if isinstance(target.operator, (cst.Is, cst.Equal)) and is_name(target.comparator, "False"):
                return True
        return self._assert_method(("assertFalse",))

    def _defaulted(self, default: cst.BaseExpression) -> bool:
        """The `getattr(..., default)` / `.get(key, default)` being visited is asserted to
        give its default (`is None`, `== []` for a `[]` default, `not ...`): the field is absent."""
        if self._negated():
            return True
        parent = self._parent()
        code = self.tests.context.code
        if isinstance(parent, cst.Comparison) and len(parent.comparisons) == 1:
            target = parent.comparisons[0]
            if isinstance(target.operator, (cst.Is, cst.Equal)):
                return code(target.comparator, 200) == code(default, 200)
        if self._assert_method(("assertIsNone",)):
            return is_name(default, "None")
        return False

    def _raises_around(self) -> bool:
        """Inside the body of `with pytest.raises(...)` / `self.assertRaises(...)`."""
        for index, node in enumerate(self.stack[:-1]):
            if isinstance(node, cst.With) and self.stack[index + 1] is node.body and raises(node):
                return True
        return False


class _LegacyKeywords(cst.CSTVisitor):
    """The values of `slash_commands=` keywords given to schema factories below a node."""

    def __init__(self, tests: TestValues) -> None:
        self.tests = tests
        self.values: list[cst.BaseExpression] = []

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        factory = self.tests.schema(func, CAPABILITY_CLASSES) or (
            isinstance(func, cst.Attribute)
            and func.attr.value == "create"
            and self.tests.schema(func.value, CAPABILITY_CLASSES | INITIALIZE_CLASSES)
        )
        if factory:
            self.values.extend(a.value for a in node.args if a.keyword is not None and a.keyword.value in LEGACY_KEYS)


def legacy_keyword_values(values: TestValues, node: cst.CSTNode) -> list[cst.BaseExpression]:
    finder = _LegacyKeywords(values)
    walk(node, finder)
    return finder.values
