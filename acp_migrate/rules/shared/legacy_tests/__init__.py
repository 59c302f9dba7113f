"""Tests of the removed behaviour: which tests of a test file are about the removed
`slash_commands` field, and what `fix` does with each (ACP008 reports and edits, and
claims the tests it removes through `FileContext.claim`; the other rules ask
`state_of_test_code`).

Not a rule. One concept a module:

- `files`: which files are test files, and which definitions are tests;
- `reads`: what a test's values hold, and where it reads the field;
- `plans`: a test's fate (`keep`, `rewrite`, `remove`, `partial`, `left`);
- `rewrite`: a test of an agent's initialize-time list, made a per-session one;
- `compat`: the backward-compatibility test, when the run removes an owned schema's field;
- `leftovers`: the fixtures only removed tests used, and a module left with no test;
- `spies`: a test spying on the command getter, asserting its calls at initialize;
- `syntax`: small readings of test code they share;
- `view`: the shape of `TestFile` that `compat` and `leftovers` read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import libcst as cst

from acp_migrate.cst.names import ImportTable, mentions
from acp_migrate.rules.shared import KEEP, LEFT, PARTIAL, REMOVE, REWRITE, TEST_RULE
from acp_migrate.rules.shared.legacy_tests import compat, leftovers
from acp_migrate.rules.shared.legacy_tests.files import is_test, is_test_class, is_test_path
from acp_migrate.rules.shared.legacy_tests.plans import ClassPlan, Planner, TestPlan
from acp_migrate.rules.shared.legacy_tests.reads import TestValues
from acp_migrate.rules.shared.legacy_tests.syntax import class_body, top_level_statements

if TYPE_CHECKING:
    from acp_migrate.rules.context import FileContext

__all__ = ["ClassPlan", "TestFile", "TestPlan", "tests_of", "state_of_test_code"]


def tests_of(context: FileContext) -> TestFile | None:
    """The tests of the file and what fix does with each, worked out once; None: the
    file's path matches none of the `test-files` globs (`tests/**`, `test_*.py`, ...)."""
    return context.shared(_tests_of)


def _tests_of(context: FileContext) -> TestFile | None:
    return TestFile(context) if is_test_path(context.path, context.settings.test_files) else None


def state_of_test_code(context: FileContext) -> str | None:
    """What fix does with the test code being visited: `removed` (a test of the removed
    behaviour, or the part of one that is about the field, goes; a field read ACP008
    rewrites is counted with them), `left` (a test about the field that fix leaves as
    it is, to a person), `kept` (other test code: a legacy keyword's value is simply
    dropped, never moved, never a TODO); None: not in a test file's tests, fixtures or
    helpers."""
    tests = tests_of(context)
    return None if tests is None else tests.state(context.lineage, context.scopes)


class TestFile:
    """The tests of one test file and their plans, computed once, on the first question."""

    __test__ = False

    def __init__(self, context: FileContext) -> None:
        self.context = context
        self.module = context.module
        self.imports = ImportTable()
        for statement in top_level_statements(self.module):
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, (cst.Import, cst.ImportFrom)):
                        self.imports.add(small)
        functions = {s.name.value: s for s in self.module.body if isinstance(s, cst.FunctionDef)}
        self.module_mentions = mentions(self.module)
        self.values = TestValues(context, self.imports, functions)
        planner = Planner(self.values, self.module_mentions)
        self.plans: dict[cst.FunctionDef, TestPlan] = {}
        self.classes: dict[cst.ClassDef, ClassPlan] = {}
        self.owner: dict[cst.FunctionDef, cst.ClassDef] = {}
        module_names = set(functions)
        for statement in self.module.body:
            if isinstance(statement, cst.FunctionDef) and is_test(statement, self.imports):
                self.plans[statement] = planner.plan(statement, statement.name.value, module_names)
            elif isinstance(statement, cst.ClassDef) and is_test_class(statement, self.imports):
                members = [m for m in class_body(statement) if isinstance(m, cst.FunctionDef)]
                names = {m.name.value for m in members}
                tests = []
                for member in members:
                    if is_test(member, self.imports):
                        plan = planner.plan(member, f"{statement.name.value}::{member.name.value}", names, statement)
                        self.plans[member] = plan
                        self.owner[member] = statement
                        tests.append(plan)
                removable = bool(tests) and all(t.fate == REMOVE for t in tests)
                removable = removable and self.module_mentions.get(statement.name.value, 0) == 0
                self.classes[statement] = ClassPlan(statement, tests, removable)
        self._effective: dict[bool, set[cst.CSTNode]] = {}  # planned or not -> removed_nodes
        self._anchor: cst.CSTNode | None | bool = False  # not looked for yet
        self._orphans: list[cst.FunctionDef] | None = None
        self._deleted: bool | None = None

    # -- what fix edits (reports dropped by suppressions or a disabled ACP008 edit nothing)
    def acts_on(self, node: cst.FunctionDef | cst.ClassDef) -> bool:
        return not self.context.dropped(node.name, TEST_RULE)

    def removes(self, plan: TestPlan) -> bool:
        return plan.fate in (REMOVE, PARTIAL) and self.acts_on(plan.function)

    def rewrites(self, plan: TestPlan) -> bool:
        return plan.fate == REWRITE and self.acts_on(plan.function)

    def removes_class(self, plan: ClassPlan) -> bool:
        return plan.removable and self.acts_on(plan.node) and all(self.removes(t) for t in plan.tests)

    def removed_nodes(self, *, planned: bool = False) -> set[cst.CSTNode]:
        """Every test, class and statement fix removes, and every field read it rewrites:
        no other rule acts there. `planned`: also where ACP008's report is dropped (its
        rule ignored, or suppressed), which edits nothing but still owns that code."""
        if planned not in self._effective:
            acts_on = (lambda node: True) if planned else self.acts_on
            removed: set[cst.CSTNode] = set()
            for plan in self.plans.values():
                if plan.fate in (REMOVE, PARTIAL) and acts_on(plan.function):
                    removed.update([plan.function] if plan.fate == REMOVE else plan.removed)
                elif plan.fate == REWRITE and acts_on(plan.function) and plan.rewrite is not None:
                    removed.update(plan.rewrite.reads)
            for class_plan in self.classes.values():
                tests_go = all(t.fate in (REMOVE, PARTIAL) and acts_on(t.function) for t in class_plan.tests)
                if class_plan.removable and acts_on(class_plan.node) and tests_go:
                    removed.add(class_plan.node)
            removed.update(f for f in self.orphaned_fixtures() if acts_on(f))
            self._effective[planned] = removed
        return self._effective[planned]

    def removes_at(self, lineage: Sequence[cst.CSTNode], *, planned: bool = False) -> bool:
        """Fix removes (or rewrites) the code at this position, the nodes being visited;
        `planned`: what ACP008 claims (`FileContext.claim`), its report kept or not."""
        removed = self.removed_nodes(planned=planned)
        deleted = leftovers.left_without_tests(self) if planned else self.deletes_module()
        return deleted or any(node in removed for node in lineage)

    def state(self, lineage: Sequence[cst.CSTNode], scopes: list[cst.ClassDef | cst.FunctionDef]) -> str | None:
        """What fix does with the test code at this position: `removed` (or rewritten),
        `left` (a test about the field that fix leaves as it is), `kept`; None: not test code."""
        if self.removes_at(lineage):
            return "removed"
        if not scopes:
            return None
        outer = scopes[0]
        if isinstance(outer, cst.FunctionDef):
            if outer not in self.plans and self.values.functions.get(outer.name.value) is outer:
                # A fixture or helper reading the field: what it sets up stays for its reads.
                return "left" if self.values.reads_field(outer.name.value) else "kept"
            return self._state_of(self.plans.get(outer))  # a test of the file
        if outer in self.classes:
            method = scopes[1] if len(scopes) > 1 else None
            return self._state_of(self.plans.get(method) if isinstance(method, cst.FunctionDef) else None)
        return None  # a class of the test file that is not a test class (a fake agent)

    def _state_of(self, plan: TestPlan | None) -> str:
        if plan is None or plan.fate == KEEP:
            return "kept"
        if plan.fate == LEFT or not (self.removes(plan) or self.rewrites(plan)):
            return "left"
        return "kept"

    # -- what goes with them (leftovers.py) -------------------------------------------------
    def orphaned_fixtures(self) -> list[cst.FunctionDef]:
        if self._orphans is None:
            self._orphans = leftovers.orphaned_fixtures(self)
        return self._orphans

    def deletes_module(self) -> bool:
        """Fix removes the file: a module left with no test (unless that report is dropped)."""
        if self._deleted is None:
            self._deleted = leftovers.left_without_tests(self) and not self.context.dropped(
                self.module_anchor(), TEST_RULE
            )
        return self._deleted

    def module_anchor(self) -> cst.Name:
        """Where the report of the module's removal is: the name of its first test or test class."""
        first = next(s for s in self.module.body if s in self.plans or s in self.classes)
        assert isinstance(first, (cst.FunctionDef, cst.ClassDef))
        return first.name

    # -- the backward-compatibility test (compat.py) -----------------------------------------
    def compat_anchor(self) -> cst.CSTNode | None:
        if self._anchor is False:
            self._anchor = compat.compat_anchor(self)
        return self._anchor  # type: ignore[return-value]

    def compat_test(self, anchor: cst.CSTNode) -> cst.FunctionDef:
        return compat.compat_test(self, anchor)
