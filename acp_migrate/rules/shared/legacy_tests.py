"""Tests of the removed behaviour: which tests of a test file are about the removed
`slash_commands` field, and what `fix` does with each (ACP008 reports and edits; the
other rules ask `FileContext`, which asks this module).

Not a rule. Vocabulary:

- a *test file*: its path matches `RuleSettings.test_files` (`is_test_path`);
- a *test*: a module-level `def test*` (or `async def`), or a `test*` method of a
  test class (`class Test*`, or one whose base is a `...TestCase`); fixtures are not;
- a *field reference*: reading the field from a value known to be capabilities or an
  initialize result (`caps.slash_commands`, `data["slashCommands"]`,
  `getattr(caps, "slash_commands")`, `hasattr(...)`, `.get(...)`, `"slashCommands" in
  data`), or a name computed from one (or a fixture of the file that reads it). An
  *absence* reference says the field is not there (`not hasattr(...)`, `... not in
  data`, `getattr(caps, "slash_commands", None) is None`, `data.get(...) is None`, a
  read inside `pytest.raises(...)`): correct code, never about the removed behaviour;
- an *assertion*: an `assert` statement, a `self.assert*(...)` call, a `with
  pytest.raises(...)` block, or a compound statement holding one; a *guard* is an
  assertion that the value a field assertion reads from exists (`assert
  response.agent_capabilities is not None`).

A test's plan (`TestPlan.fate`):

- `keep`: no assertion of it is about the field;
- `remove`: every assertion is about the field (or guards it): the test goes whole,
  and a test class whose tests all go goes with them;
- `partial`: it asserts other things too: the statements about the field go (and the
  locals only they read), the rest stays;
- `left`: it asserts other things too but cannot be split safely (an assertion mixes
  the field with other checks, a value read from the field is used by what stays, the
  field is used outside an assertion, or the test is called by name): nothing in it
  changes, and it is reported.
"""

from __future__ import annotations

import fnmatch
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from acp_migrate.cst.layout import is_docstring
from acp_migrate.cst.names import ImportTable, last_part, mentions
from acp_migrate.cst.walk import walk
from acp_migrate.engine.analysis.prefilter import may_contain_legacy
from acp_migrate.rules.shared import (
    CAPABILITY_CLASSES,
    CAPABILITY_KEYS,
    CAPS,
    CAPS_DICT,
    DUMPERS,
    INIT,
    INIT_DICT,
    INITIALIZE_CLASSES,
    KEEP,
    LEFT,
    LEGACY_KEYS,
    PARTIAL,
    REMOVE,
    TEST_RULE,
)

if TYPE_CHECKING:
    from acp_migrate.rules.context import FileContext

CONSTRUCTORS = frozenset(
    {"create", "model_validate", "model_validate_json", "model_validate_strings", "model_construct", "parse_obj"}
)
# Where the official SDK's schema classes are imported from: a test file importing
# them from anywhere else tests a schema the project owns.
OFFICIAL_SCHEMA_MODULES = frozenset({"acp", "acp.schema"})
COMPAT_TEST = "test_old_json_with_slash_commands_still_validates"


# -- which files ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _compiled(patterns: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[re.Pattern[str], ...]]:
    from acp_migrate.globs import glob_regex

    names: list[str] = []
    paths: list[re.Pattern[str]] = []
    for raw in patterns:
        pattern = raw.strip().removeprefix("./").rstrip("/")
        if "/" in pattern:
            paths.append(glob_regex(pattern.lstrip("/")))
        elif pattern:
            names.append(pattern)
    return tuple(names), tuple(paths)


def is_test_path(path: str | None, patterns: tuple[str, ...]) -> bool:
    """`path` (as the run names it) matches one of the `test-files` globs: a glob
    without `/` matches the file's name or a folder's (`test_*.py`, `tests`); one with
    `/` matches the path's last parts (`tests/**`: anything below a folder `tests`)."""
    if not path:
        return False
    parts = [part for part in re.split(r"[\\/]+", path) if part not in ("", ".", "..")]
    names, globs = _compiled(patterns)
    if any(fnmatch.fnmatchcase(part, name) for part in parts for name in names):
        return True
    tails = ["/".join(parts[index:]) for index in range(len(parts))]
    return any(regex.fullmatch(tail) for regex in globs for tail in tails)


# -- plans ---------------------------------------------------------------------------------


@dataclass
class TestPlan:
    function: cst.FunctionDef
    name: str  # as pytest names it: `TestClass::test_name` or `test_name`
    fate: str
    removed: tuple[cst.BaseStatement, ...] = ()  # `partial`: the statements that go
    evidence: str = ""  # the first assertion about the field
    reason: str = ""  # `left`: why the test cannot be split

    __test__ = False  # not a pytest class, whatever its name


@dataclass
class ClassPlan:
    node: cst.ClassDef
    tests: list[TestPlan]
    # Every test in it is about the field, and nothing else names the class.
    removable: bool

    __test__ = False


@dataclass
class _Ref:
    node: cst.CSTNode
    absent: bool
    base: cst.BaseExpression | None  # what the field is read from


@dataclass
class _Unit:
    """One statement of a test's body, classified."""

    statement: cst.BaseStatement
    kind: str  # field-assert, field-setup, field-use, absence, other, plain
    target: str | None = None  # the name a simple assignment binds
    mixed: bool = False  # a field assertion that checks other things too
    uses: frozenset[str] = frozenset()  # the names it reads
    bases: tuple[str, ...] = ()  # code of what its field references read from
    guard: str | None = None  # `assert X is not None`: the code of X


class TestFile:
    """The tests of one test file and their plans, computed once, on the first question."""

    __test__ = False

    def __init__(self, context: FileContext) -> None:
        self.context = context
        self.module = context.module
        self.imports = ImportTable()
        for statement in _top_level_statements(self.module):
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, (cst.Import, cst.ImportFrom)):
                        self.imports.add(small)
        self.functions: dict[str, cst.FunctionDef] = {
            s.name.value: s for s in self.module.body if isinstance(s, cst.FunctionDef)
        }
        self._return_kinds: dict[str, str | None] = {}
        self._field_functions: dict[str, bool] = {}
        self.plans: dict[cst.FunctionDef, TestPlan] = {}
        self.classes: dict[cst.ClassDef, ClassPlan] = {}
        self.owner: dict[cst.FunctionDef, cst.ClassDef] = {}
        self._module_mentions = mentions(self.module)
        for statement in self.module.body:
            if isinstance(statement, cst.FunctionDef) and _is_test_name(statement) and not self._is_fixture(statement):
                self.plans[statement] = self._plan(statement, statement.name.value)
            elif isinstance(statement, cst.ClassDef) and self._is_test_class(statement):
                tests = []
                for member in _class_body(statement):
                    if isinstance(member, cst.FunctionDef) and _is_test_name(member) and not self._is_fixture(member):
                        plan = self._plan(member, f"{statement.name.value}::{member.name.value}")
                        self.plans[member] = plan
                        self.owner[member] = statement
                        tests.append(plan)
                removable = bool(tests) and all(t.fate == REMOVE for t in tests)
                removable = removable and self._module_mentions.get(statement.name.value, 0) == 0
                self.classes[statement] = ClassPlan(statement, tests, removable)
        self._effective: set[cst.CSTNode] | None = None
        self._anchor: cst.CSTNode | None | bool = False  # not looked for yet

    # -- what fix removes (reports dropped by suppressions or a disabled ACP008 remove nothing)
    def acts_on(self, node: cst.FunctionDef | cst.ClassDef) -> bool:
        return not self.context.dropped(node.name, TEST_RULE)

    def removes(self, plan: TestPlan) -> bool:
        return plan.fate in (REMOVE, PARTIAL) and self.acts_on(plan.function)

    def removes_class(self, plan: ClassPlan) -> bool:
        return plan.removable and self.acts_on(plan.node) and all(self.removes(t) for t in plan.tests)

    def removed_nodes(self) -> set[cst.CSTNode]:
        """Every test, class and statement fix removes."""
        if self._effective is None:
            removed: set[cst.CSTNode] = set()
            for plan in self.plans.values():
                if self.removes(plan):
                    removed.update([plan.function] if plan.fate == REMOVE else plan.removed)
            for class_plan in self.classes.values():
                if self.removes_class(class_plan):
                    removed.add(class_plan.node)
            self._effective = removed
        return self._effective

    def state(self, lineage: Iterable[cst.CSTNode], scopes: list[cst.ClassDef | cst.FunctionDef]) -> str | None:
        """What fix does with the test code at this position: `removed`, `left` (a test
        about the field that fix leaves as it is), `kept`; None: not test code."""
        removed = self.removed_nodes()
        if any(node in removed for node in lineage):
            return "removed"
        if not scopes:
            return None
        outer = scopes[0]
        if isinstance(outer, cst.FunctionDef):
            plan = self.plans.get(outer)
            if plan is not None and plan.fate != KEEP and (plan.fate == LEFT or not self.removes(plan)):
                return "left"
            return "kept"  # a test, a fixture or a helper of the file
        if outer in self.classes:
            method = scopes[1] if len(scopes) > 1 else None
            plan = self.plans.get(method) if isinstance(method, cst.FunctionDef) else None
            if plan is not None and plan.fate != KEEP and (plan.fate == LEFT or not self.removes(plan)):
                return "left"
            return "kept"
        return None  # a class of the test file that is not a test class (a fake agent)

    # -- the backward-compatibility test ---------------------------------------------------
    def compat_anchor(self) -> cst.CSTNode | None:
        """The first test or class fix removes whole, where the backward-compatibility
        test goes; None when none is needed (nothing removed whole, the schema is the
        SDK's, or the file already has one)."""
        if self._anchor is False:
            self._anchor = self._compat_anchor()
        return self._anchor  # type: ignore[return-value]

    def _compat_anchor(self) -> cst.CSTNode | None:
        if self.owned_schema() is None:
            return None
        anchor = None
        for statement in self.module.body:
            if isinstance(statement, cst.FunctionDef) and statement in self.plans:
                plan = self.plans[statement]
                if plan.fate == REMOVE and self.removes(plan):
                    anchor = statement
            elif isinstance(statement, cst.ClassDef) and statement in self.classes:
                class_plan = self.classes[statement]
                if self.removes_class(class_plan):
                    anchor = statement
                else:
                    anchor = next(
                        (t.function for t in class_plan.tests if t.fate == REMOVE and self.removes(t)), None
                    )
            if anchor is not None:
                break
        if anchor is None or self._has_compat_test():
            return None
        return anchor

    def owned_schema(self) -> tuple[str, str] | None:
        """(local name, `caps` or `init`) of a schema class the file imports from a module
        other than the official SDK's."""
        found: dict[str, str] = {}
        for local, qualified in self.imports.bindings.items():
            module, _, name = qualified.rpartition(".")
            if module and module not in OFFICIAL_SCHEMA_MODULES and local in self._module_mentions:
                if name in CAPABILITY_CLASSES:
                    found.setdefault("caps", local)
                elif name in INITIALIZE_CLASSES:
                    found.setdefault("init", local)
        if "caps" in found:
            return found["caps"], "caps"
        if "init" in found:
            return found["init"], "init"
        return None

    def compat_test(self, anchor: cst.CSTNode) -> cst.FunctionDef:
        local, kind = self.owned_schema() or ("AgentCapabilities", "caps")
        indent = self.module.default_indent
        newline = self.module.default_newline
        commands = '{"slashCommands": [{"name": "plan", "description": "Create a plan"}]}'
        if kind == "caps":
            owner = "caps"
            lines = [f"caps = {local}.model_validate(", indent + commands, ")"]
        else:
            owner = "response.agent_capabilities"
            lines = [
                f"response = {local}.model_validate(",
                indent + "{",
                indent * 2 + '"protocolVersion": 1,',
                indent * 2 + f'"agentCapabilities": {commands},',
                indent + "}",
                ")",
            ]
        method = anchor in self.owner
        code = newline.join(
            [
                f"def {COMPAT_TEST}({'self' if method else ''}):",
                f'{indent}"""Old JSON with `slashCommands` still validates, without the field (RFC-0032)."""',
                *(indent + line for line in lines),
                f'{indent}assert not hasattr({owner}, "slash_commands")',
                "",
            ]
        )
        function = cst.parse_statement(code, config=self.module.config_for_parsing)
        assert isinstance(function, cst.FunctionDef)
        kept = list(anchor.leading_lines)
        while kept and kept[-1].comment is not None:  # comments attached to what goes
            kept.pop()
        return function.with_changes(leading_lines=kept)

    def _has_compat_test(self) -> bool:
        removed = self.removed_nodes()
        for statement in self.module.body:
            if isinstance(statement, cst.FunctionDef) and statement.name.value == COMPAT_TEST:
                return True
            for member in _class_body(statement) if isinstance(statement, cst.ClassDef) else ():
                if isinstance(member, cst.FunctionDef) and member.name.value == COMPAT_TEST:
                    return True
        for plan in self.plans.values():
            if plan.function in removed or self.owner.get(plan.function) in removed:
                continue
            finder = _OldJson()
            walk(plan.function.body, finder)
            if finder.validates and finder.legacy_dict:
                return True
        return False

    # -- kinds of values --------------------------------------------------------------------
    def _schema(self, node: cst.BaseExpression, names: frozenset[str]) -> bool:
        return last_part(self.imports.resolve(node, local_names=self.context.defined_classes)) in names

    def kind(self, node: cst.BaseExpression, env: dict[str, str]) -> str | None:
        if isinstance(node, cst.Await):
            return self.kind(node.expression, env)
        if isinstance(node, cst.Name):
            return env.get(node.value)
        if isinstance(node, cst.Attribute):
            if node.attr.value in CAPABILITY_KEYS:
                return CAPS
            if node.attr.value == "model_fields":
                return CAPS_DICT if self.kind(node.value, env) == CAPS or self._schema(node.value, CAPABILITY_CLASSES) else None
            return None
        if isinstance(node, cst.Subscript):
            key = _subscript_key(node)
            return CAPS_DICT if key in CAPABILITY_KEYS else None
        if isinstance(node, cst.Call):
            return self._call_kind(node, env)
        return None

    def _call_kind(self, node: cst.Call, env: dict[str, str]) -> str | None:
        func = node.func
        if self._schema(func, CAPABILITY_CLASSES):
            return CAPS
        if self._schema(func, INITIALIZE_CLASSES):
            return INIT
        if isinstance(func, cst.Name):
            if func.value in self.functions:
                return self._return_kind(func.value)
            resolved = self.imports.resolve(func) or ""
            if resolved in ("asyncio.run", "run") and node.args:
                return self.kind(node.args[0].value, env)
            return None
        if not isinstance(func, cst.Attribute):
            return None
        method = func.attr.value
        if method in CONSTRUCTORS:
            if self._schema(func.value, CAPABILITY_CLASSES):
                return CAPS
            if self._schema(func.value, INITIALIZE_CLASSES):
                return INIT
        if method == "initialize":
            return INIT
        if method == "run" and (self.imports.resolve(func) or "") == "asyncio.run" and node.args:
            return self.kind(node.args[0].value, env)
        if method == "model_copy":
            return self.kind(func.value, env)
        if method in DUMPERS:
            return {CAPS: CAPS_DICT, INIT: INIT_DICT}.get(self.kind(func.value, env) or "")
        if method == "get" and node.args and _string(node.args[0].value) in CAPABILITY_KEYS:
            return CAPS_DICT
        return None

    def _annotation_kind(self, annotation: cst.Annotation | None) -> str | None:
        if annotation is None:
            return None
        if self._schema(annotation.annotation, CAPABILITY_CLASSES):
            return CAPS
        if self._schema(annotation.annotation, INITIALIZE_CLASSES):
            return INIT
        return None

    def _environment(self, function: cst.FunctionDef) -> dict[str, str]:
        env: dict[str, str] = {}
        for param in _params(function):
            kind = self._annotation_kind(param.annotation)
            if kind is None and param.name.value in self.functions and param.name.value != function.name.value:
                kind = self._return_kind(param.name.value)  # a fixture of this file
            if kind is not None:
                env[param.name.value] = kind
        for target, value in _assignments(function):
            kind = self.kind(value, env) if value is not None else None
            if kind is None:
                env.pop(target, None)
            else:
                env[target] = kind
        return env

    def _return_kind(self, name: str) -> str | None:
        if name not in self._return_kinds:
            self._return_kinds[name] = None  # (recursion)
            function = self.functions[name]
            kind = self._annotation_kind(function.returns)
            # Only a body holding a legacy token is read: `check` sees no other (engine/analysis/hollow.py).
            if kind is None and may_contain_legacy(self.module.code_for_node(function).encode()):
                env = self._environment(function)
                finder = _Returns()
                walk(function.body, finder)
                kind = next((k for value in finder.values if (k := self.kind(value, env)) is not None), None)
            self._return_kinds[name] = kind
        return self._return_kinds[name]

    def reads_field(self, name: str) -> bool:
        """A module-level function of the file (a fixture) whose body reads the field."""
        if name not in self._field_functions:
            self._field_functions[name] = False  # (recursion)
            function = self.functions[name]
            env = self._environment(function)
            self._field_functions[name] = any(not r.absent for r in self._refs(function.body, env))
        return self._field_functions[name]

    # -- field references -------------------------------------------------------------------
    def _refs(self, node: cst.CSTNode, env: dict[str, str]) -> list[_Ref]:
        finder = _RefFinder(self, env)
        walk(node, finder)
        return finder.refs

    # -- one test ----------------------------------------------------------------------------
    def _plan(self, function: cst.FunctionDef, name: str) -> TestPlan:
        env = self._environment(function)
        body = _body(function)
        tainted = self._tainted(function, env)
        units = [self._unit(statement, env, tainted) for statement in body]
        field = [u for u in units if u.kind == "field-assert"]
        uses = [u for u in units if u.kind == "field-use"]
        if not field and not uses:
            return TestPlan(function, name, KEEP)
        evidence = _evidence(self.context, (field or uses)[0].statement)
        bases = {base for u in units for base in u.bases}  # what the field is read from
        others = [u for u in units if u.kind in ("other", "absence") and not (u.guard is not None and u.guard in bases)]
        left = functools.partial(TestPlan, function, name, LEFT, evidence=evidence)
        mixed = next((u for u in field if u.mixed), None)
        if mixed is not None:  # it asserts other things too, in the same assertion
            return left(reason=f"`{_evidence(self.context, mixed.statement)}` checks the field together with other things")
        if not others:
            if self._module_mentions.get(function.name.value, 0):
                return TestPlan(function, name, LEFT, evidence=evidence, reason=f"`{function.name.value}` is called by name")
            return TestPlan(function, name, REMOVE, evidence=evidence)
        if uses:
            return left(reason=f"it uses the field outside an assertion (`{_evidence(self.context, uses[0].statement)}`)")
        removed = {id(u) for u in field}
        changed = True
        while changed:  # the locals only removed statements read go with them
            changed = False
            for unit in units:
                if id(unit) in removed or unit.target is None or unit.kind not in ("field-setup", "plain"):
                    continue
                readers = [u for u in units if u is not unit and unit.target in u.uses]
                if unit.kind == "plain" and (not readers or not _side_effect_free(unit.statement)):
                    continue
                if all(id(u) in removed for u in readers):
                    removed.add(id(unit))
                    changed = True
        for unit in units:
            if unit.kind == "field-setup" and id(unit) not in removed:
                return left(reason=f"`{unit.target}` is read from the field and used by what stays")
        if not isinstance(function.body, cst.IndentedBlock):
            return left(reason="its body is one line")
        return TestPlan(
            function, name, PARTIAL, removed=tuple(u.statement for u in units if id(u) in removed), evidence=evidence
        )

    def _tainted(self, function: cst.FunctionDef, env: dict[str, str]) -> set[str]:
        """Names a value read from the field flows into."""
        tainted = {
            p.name.value
            for p in _params(function)
            if p.name.value in self.functions and p.name.value != function.name.value and self.reads_field(p.name.value)
        }
        pairs = list(_assignments(function, loops=True))
        changed = True
        while changed:
            changed = False
            for target, value in pairs:
                if target in tainted or value is None:
                    continue
                if set(mentions(value)) & tainted or any(not r.absent for r in self._refs(value, env)):
                    tainted.add(target)
                    changed = True
        return tainted

    def _unit(self, statement: cst.BaseStatement, env: dict[str, str], tainted: set[str]) -> _Unit:
        target, value = _simple_assignment(statement)
        uses = self._uses(value if target is not None and value is not None else statement)
        refs = self._refs(statement, env)
        present = [r for r in refs if not r.absent]
        asserting = _is_assertion(statement)
        if present or uses & tainted:
            bases = tuple(self.context.code(p, 200) for r in present if r.base is not None for p in _prefixes(r.base))
            if asserting:
                mixed = self._mixed(statement, env, tainted)
                return _Unit(statement, "field-assert", target, mixed, uses, bases)
            if target is not None:
                return _Unit(statement, "field-setup", target, uses=uses, bases=bases)
            return _Unit(statement, "field-use", uses=uses, bases=bases)
        if asserting:
            return _Unit(statement, "absence" if refs else "other", uses=uses, guard=self._guarded(statement))
        return _Unit(statement, "plain", target, uses=uses)

    def _uses(self, node: cst.CSTNode) -> frozenset[str]:
        """The names `node` reads, but for those in a legacy keyword's value given to a
        schema factory: ACP001 drops that value (with the locals only it read)."""
        counts = mentions(node)
        finder = _LegacyKeywords(self)
        walk(node, finder)
        for value in finder.values:
            counts.subtract(mentions(value))
        return frozenset(name for name, count in counts.items() if count > 0)

    def _about_field(self, node: cst.CSTNode, env: dict[str, str], tainted: set[str]) -> bool:
        return bool(set(mentions(node)) & tainted) or any(not r.absent for r in self._refs(node, env))

    def _mixed(self, statement: cst.BaseStatement, env: dict[str, str], tainted: set[str]) -> bool:
        """An assertion about the field that also checks something else."""
        if isinstance(statement, cst.SimpleStatementLine):
            if len(statement.body) != 1:
                return True
            small = statement.body[0]
            if isinstance(small, cst.Assert):
                operands = _and_operands(small.test)
            elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and len(small.value.args) == 1:
                operands = _and_operands(small.value.args[0].value)
            else:
                return False
            about = [self._about_field(o, env, tainted) for o in operands]
            bases = {
                self.context.code(p, 200)
                for o, a in zip(operands, about)
                if a
                for r in self._refs(o, env)
                if r.base is not None
                for p in _prefixes(r.base)
            }
            # `X is not None and X.slash_commands`: the guard goes with the field.
            return any(not a and self._guarded(cst.SimpleStatementLine([cst.Assert(o)])) not in bases for o, a in zip(operands, about))
        # A compound statement: about the field in its header, or in each assertion inside.
        header = _header(statement)
        if header is not None and self._about_field(header, env, tainted):
            return False
        finder = _Assertions()
        walk(statement, finder)
        return any(not self._about_field(a, env, tainted) for a in finder.found)

    def _guarded(self, statement: cst.BaseStatement) -> str | None:
        """`assert X is not None`, `assert X`, `assert isinstance(X, ...)`: the code of X."""
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            return None
        small = statement.body[0]
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            call = small.value  # self.assertIsNotNone(X), self.assertTrue(X), self.assertIsInstance(X, T)
            if (
                isinstance(call.func, cst.Attribute)
                and call.func.attr.value in ("assertIsNotNone", "assertTrue", "assertIsInstance")
                and call.args
            ):
                small = cst.Assert(test=call.args[0].value)
        if not isinstance(small, cst.Assert):
            return None
        test = small.test
        if (
            isinstance(test, cst.Comparison)
            and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, cst.IsNot)
            and isinstance(test.comparisons[0].comparator, cst.Name)
            and test.comparisons[0].comparator.value == "None"
        ):
            test = test.left
        elif isinstance(test, cst.Call) and isinstance(test.func, cst.Name) and test.func.value == "isinstance" and test.args:
            test = test.args[0].value
        if isinstance(test, (cst.Name, cst.Attribute)):
            return self.context.code(test, 200)
        return None

    # -- names -------------------------------------------------------------------------------
    def _is_fixture(self, function: cst.FunctionDef) -> bool:
        for decorator in function.decorators:
            target = decorator.decorator
            if isinstance(target, cst.Call):
                target = target.func
            if last_part(self.imports.resolve(target)) in ("fixture", "yield_fixture"):
                return True
        return False

    def _is_test_class(self, node: cst.ClassDef) -> bool:
        if node.name.value.startswith("Test"):
            return True
        return any((last_part(self.imports.resolve(base.value)) or "").endswith("TestCase") for base in node.bases)


# -- helpers ---------------------------------------------------------------------------------


class _RefFinder(cst.CSTVisitor):
    """Field references below a node, each with whether it asserts absence."""

    def __init__(self, tests: TestFile, env: dict[str, str]) -> None:
        self.tests = tests
        self.env = env
        self.stack: list[cst.CSTNode] = []
        self.refs: list[_Ref] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        ref = self._ref(node)
        if ref is not None:
            self.refs.append(ref)
        self.stack.append(node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.stack.pop()

    def _ref(self, node: cst.CSTNode) -> _Ref | None:
        kind = self.tests.kind
        env = self.env
        if isinstance(node, cst.Attribute):
            if node.attr.value in LEGACY_KEYS and kind(node.value, env) == CAPS:
                return _Ref(node, self._raises_around(), node.value)
        elif isinstance(node, cst.Subscript):
            if _subscript_key(node) in LEGACY_KEYS and kind(node.value, env) == CAPS_DICT:
                return _Ref(node, self._raises_around(), node.value)
        elif isinstance(node, cst.Comparison):
            if _string(node.left) in LEGACY_KEYS and len(node.comparisons) == 1:
                target = node.comparisons[0]
                if isinstance(target.operator, cst.NotIn):
                    return _Ref(node, True, None)
                if isinstance(target.operator, cst.In) and kind(target.comparator, env) == CAPS_DICT:
                    return _Ref(node, self._negated(), target.comparator)
        elif isinstance(node, cst.Call):
            return self._call_ref(node)
        elif isinstance(node, cst.Arg):
            if node.keyword is not None and node.keyword.value in LEGACY_KEYS and self._raises_around():
                # `pytest.raises(...)` around a legacy keyword: the field's validation is tested.
                return _Ref(node, False, None)
        return None

    def _call_ref(self, node: cst.Call) -> _Ref | None:
        func, args = node.func, node.args
        kind, env = self.tests.kind, self.env
        if isinstance(func, cst.Name):
            if func.value in ("getattr", "hasattr") and len(args) >= 2 and _string(args[1].value) in LEGACY_KEYS:
                if kind(args[0].value, env) == CAPS:
                    if func.value == "hasattr":
                        absent = self._negated()
                    else:  # without a default, getattr raises: only a default can say "absent"
                        absent = len(args) > 2 and self._defaulted(args[2].value)
                    return _Ref(node, absent or self._raises_around(), args[0].value)
            return None
        if not isinstance(func, cst.Attribute):
            return None
        method = func.attr.value
        if method == "get" and args and _string(args[0].value) in LEGACY_KEYS and kind(func.value, env) == CAPS_DICT:
            default = args[1].value if len(args) > 1 else cst.Name("None")
            return _Ref(node, self._defaulted(default), func.value)
        if method in ("assertIn", "assertNotIn") and len(args) >= 2 and _string(args[0].value) in LEGACY_KEYS:
            if method == "assertNotIn":
                return _Ref(node, True, None)
            if kind(args[1].value, env) == CAPS_DICT:
                return _Ref(node, False, args[1].value)
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
            if isinstance(target.operator, (cst.Is, cst.Equal)) and _is_name(target.comparator, "False"):
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
            return _is_name(default, "None")
        return False

    def _raises_around(self) -> bool:
        """Inside the body of `with pytest.raises(...)` / `self.assertRaises(...)`."""
        for index, node in enumerate(self.stack[:-1]):
            if isinstance(node, cst.With) and self.stack[index + 1] is node.body and _raises(node):
                return True
        return False


def _raises(node: cst.With) -> bool:
    for item in node.items:
        call = item.item
        if isinstance(call, cst.Call):
            func = call.func
            name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
            if name in ("raises", "assertRaises", "assertRaisesRegex"):
                return True
    return False


class _LegacyKeywords(cst.CSTVisitor):
    """The values of `slash_commands=` keywords given to schema factories below a node."""

    def __init__(self, tests: TestFile) -> None:
        self.tests = tests
        self.values: list[cst.BaseExpression] = []

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        factory = self.tests._schema(func, CAPABILITY_CLASSES) or (
            isinstance(func, cst.Attribute)
            and func.attr.value == "create"
            and self.tests._schema(func.value, CAPABILITY_CLASSES | INITIALIZE_CLASSES)
        )
        if factory:
            self.values.extend(a.value for a in node.args if a.keyword is not None and a.keyword.value in LEGACY_KEYS)


class _Assertions(cst.CSTVisitor):
    """Assertions below a node (not in nested definitions)."""

    def __init__(self) -> None:
        self.found: list[cst.CSTNode] = []

    def visit_Assert(self, node: cst.Assert) -> None:
        self.found.append(node.test)

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value.startswith("assert"):
            self.found.append(node)

    def visit_With(self, node: cst.With) -> None:
        if _raises(node):
            self.found.append(node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False


class _Returns(cst.CSTVisitor):
    def __init__(self) -> None:
        self.values: list[cst.BaseExpression] = []

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None:
            self.values.append(node.value)

    def visit_Yield(self, node: cst.Yield) -> None:
        if isinstance(node.value, cst.BaseExpression):
            self.values.append(node.value)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


class _OldJson(cst.CSTVisitor):
    """A test that validates old JSON holding the legacy key."""

    def __init__(self) -> None:
        self.validates = False
        self.legacy_dict = False

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in CONSTRUCTORS - {"create"}:
            self.validates = True

    def visit_DictElement(self, node: cst.DictElement) -> None:
        if _string(node.key) in LEGACY_KEYS:
            self.legacy_dict = True


class _AssignmentFinder(cst.CSTVisitor):
    def __init__(self, loops: bool) -> None:
        self.loops = loops
        self.pairs: list[tuple[str, cst.BaseExpression | None]] = []

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            for name in _target_names(target.target):
                self.pairs.append((name, node.value))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        for name in _target_names(node.target):
            self.pairs.append((name, node.value))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        for name in _target_names(node.target):
            self.pairs.append((name, node.value))

    def visit_For(self, node: cst.For) -> None:
        if self.loops:
            for name in _target_names(node.target):
                self.pairs.append((name, node.iter))

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if self.loops and node.asname is not None:
            for name in _target_names(node.asname.name):
                self.pairs.append((name, node.item))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False


def _assignments(function: cst.FunctionDef, loops: bool = False) -> list[tuple[str, cst.BaseExpression | None]]:
    finder = _AssignmentFinder(loops)
    walk(function.body, finder)
    return finder.pairs


def _target_names(target: cst.CSTNode) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [name for element in target.elements for name in _target_names(element.value)]
    if isinstance(target, cst.StarredElement):
        return _target_names(target.value)
    return []


def _simple_assignment(statement: cst.BaseStatement) -> tuple[str | None, cst.BaseExpression | None]:
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        small = statement.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            return small.targets[0].target.value, small.value
        if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.value is not None:
            return small.target.value, small.value
    return None, None


def _is_assertion(statement: cst.BaseStatement) -> bool:
    finder = _Assertions()
    walk(statement, finder)
    return bool(finder.found)


def _header(statement: cst.BaseStatement) -> cst.CSTNode | None:
    if isinstance(statement, (cst.For,)):
        return statement.iter
    if isinstance(statement, (cst.If, cst.While)):
        return statement.test
    if isinstance(statement, cst.With):
        return cst.Tuple([cst.Element(item.item) for item in statement.items])
    return None


def _and_operands(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.And):
        return _and_operands(node.left) + _and_operands(node.right)
    return [node]


def _side_effect_free(statement: cst.BaseStatement) -> bool:
    """A local made of literals, names and constructor calls (`AvailableCommand(...)`)."""
    finder = _Effects()
    walk(statement, finder)
    return not finder.found


class _Effects(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found = False

    def visit_Await(self, node: cst.Await) -> None:
        self.found = True

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
        if not (name[:1].isupper() or name in ("create", "list", "dict", "set", "tuple", "str", "int")):
            self.found = True


def _evidence(context: FileContext, statement: cst.BaseStatement) -> str:
    """The assertion shown in messages: `assert <test>`, without comments or message."""
    if isinstance(statement, cst.SimpleStatementLine) and statement.body:
        small = statement.body[0]
        if isinstance(small, cst.Assert):
            return "assert " + context.code(small.test, 62)
        return context.code(small, 70)
    try:
        first = context.module.code_for_node(statement.with_changes(leading_lines=())).strip().splitlines()[0]
    except (TypeError, IndexError):  # (a statement without leading lines)
        return context.code(statement, 70)
    text = " ".join(first.split())
    return (text if len(text) <= 66 else text[:65] + "…") + " ..."


def _prefixes(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    """`a.b.c` -> [a.b.c, a.b, a]."""
    found = [node]
    while isinstance(node, cst.Attribute):
        node = node.value
        found.append(node)
    return found


def _params(function: cst.FunctionDef) -> list[cst.Param]:
    params = function.params
    return [*params.posonly_params, *params.params, *params.kwonly_params]


def _body(function: cst.FunctionDef) -> list[cst.BaseStatement]:
    if not isinstance(function.body, cst.IndentedBlock):  # `def test(): assert ...`: one statement
        return [cst.SimpleStatementLine(list(function.body.body))]
    statements = list(function.body.body)
    if statements and is_docstring(statements[0]):
        statements = statements[1:]
    return statements



def _class_body(node: cst.ClassDef) -> list[cst.BaseStatement]:
    return list(node.body.body) if isinstance(node.body, cst.IndentedBlock) else []


def _top_level_statements(module: cst.Module) -> Iterable[cst.BaseStatement]:
    for statement in module.body:
        yield statement
        if isinstance(statement, (cst.If, cst.Try)) and isinstance(statement.body, cst.IndentedBlock):
            yield from statement.body.body


def _is_test_name(function: cst.FunctionDef) -> bool:
    return function.name.value.startswith("test")


def _is_name(node: cst.BaseExpression, value: str) -> bool:
    return isinstance(node, cst.Name) and node.value == value


def _string(node: cst.BaseExpression | None) -> str | None:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _subscript_key(node: cst.Subscript) -> str | None:
    if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        return _string(node.slice[0].slice.value)
    return None

