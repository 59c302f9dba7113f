"""Planning a test's fate: what `fix` does with one test about the removed field.

An *assertion*: an `assert` statement, a `self.assert*(...)` call, a `with
pytest.raises(...)` block, or a compound statement holding one; a *guard* is an
assertion that the value a field assertion reads from exists (`assert
response.agent_capabilities is not None`).

A test's plan (`TestPlan.fate`):

- `keep`: no assertion of it is about the field;
- `rewrite`: every read of the field is of an agent's initialize result (`response =
  await agent.initialize(...)`): the test becomes a test of the per-session
  advertisement (`rewrite.py`);
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

import functools
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from acp_migrate.cst.names import mentions
from acp_migrate.cst.walk import walk
from acp_migrate.rules.shared import CAPABILITY_KEYS, INIT, INIT_DICT, KEEP, LEFT, PARTIAL, REMOVE, REWRITE
from acp_migrate.rules.shared.legacy_tests.reads import TestValues, legacy_keyword_values
from acp_migrate.rules.shared.legacy_tests.rewrite import Rewrite, plan_rewrite, rewritten_name
from acp_migrate.rules.shared.legacy_tests.syntax import (
    Assertions,
    and_operands,
    assignments,
    body_of,
    header,
    is_assertion,
    params,
    prefixes,
    simple_assignment,
)
from acp_migrate.rules.shared.syntax import subscript_key

if TYPE_CHECKING:
    from acp_migrate.rules.context import FileContext


@dataclass
class TestPlan:
    function: cst.FunctionDef
    name: str  # as pytest names it: `TestClass::test_name` or `test_name`
    fate: str
    removed: tuple[cst.BaseStatement, ...] = ()  # `partial`: the statements that go
    evidence: str = ""  # the first assertion about the field
    reason: str = ""  # `left`: why the test cannot be split
    rewrite: Rewrite | None = None  # `rewrite`: its edits
    # `remove`: it read an initialize result no agent of the file could be asked again for
    # (built in a helper, asked over the wire): a person covers the per-session list.
    initialize: bool = False

    __test__ = False  # not a pytest class, whatever its name


@dataclass
class ClassPlan:
    node: cst.ClassDef
    tests: list[TestPlan]
    # Every test in it is about the field, and nothing else names the class.
    removable: bool

    __test__ = False


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


class Planner:
    """Plans the tests of one test file."""

    def __init__(self, values: TestValues, module_mentions: Counter[str]) -> None:
        self.values = values
        self.context = values.context
        self.module_mentions = module_mentions

    # -- one test ----------------------------------------------------------------------------
    def plan(
        self, function: cst.FunctionDef, name: str, taken: set[str], owner: cst.ClassDef | None = None
    ) -> TestPlan:
        """`taken`: the names beside it (a rewritten test's new name must be free);
        `owner`: its test class."""
        env = self.values.environment(function, owner)
        body = body_of(function)
        tainted = self._tainted(function, env)
        units = [self._unit(statement, env, tainted) for statement in body]
        field = [u for u in units if u.kind == "field-assert"]
        uses = [u for u in units if u.kind == "field-use"]
        for decorator in function.decorators:  # `@pytest.mark.parametrize(..., caps.slash_commands)`
            if any(not r.absent for r in self.values.refs(decorator, {})):
                evidence = self.context.code(decorator.decorator)
                reason = f"its parameters are read from the field (`{evidence}`)"
                return TestPlan(function, name, LEFT, evidence=evidence, reason=reason)
        if not field and not uses:
            return TestPlan(function, name, KEEP)
        evidence = _evidence(self.context, (field or uses)[0].statement)
        if self._fixtures_clean(function):
            present = [r for r in self.values.refs(function.body, env) if not r.absent]
            rewrite = plan_rewrite(self.values, function, present)
            if rewrite is not None:
                if not self.module_mentions.get(function.name.value, 0):  # (not called by name)
                    rewrite.name = rewritten_name(function.name.value, taken)
                return TestPlan(function, name, REWRITE, evidence=evidence, rewrite=rewrite)
        bases = {base for u in units for base in u.bases}  # what the field is read from
        others = [u for u in units if u.kind in ("other", "absence") and not (u.guard is not None and u.guard in bases)]
        left = functools.partial(TestPlan, function, name, LEFT, evidence=evidence)
        mixed = next((u for u in field if u.mixed), None)
        if mixed is not None:  # it asserts other things too, in the same assertion
            return left(
                reason=f"`{_evidence(self.context, mixed.statement)}` checks the field together with other things"
            )
        if not others:
            if self.module_mentions.get(function.name.value, 0):
                return TestPlan(
                    function, name, LEFT, evidence=evidence, reason=f"`{function.name.value}` is called by name"
                )
            return TestPlan(function, name, REMOVE, evidence=evidence, initialize=self._initialize_read(function, env))
        if uses:
            return left(
                reason=f"it uses the field outside an assertion (`{_evidence(self.context, uses[0].statement)}`)"
            )
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

    def _initialize_read(self, function: cst.FunctionDef, env: dict[str, str]) -> bool:
        """Some field read of the test is of an initialize result (not of capabilities it built)."""
        for ref in self.values.refs(function.body, env):
            base = ref.base
            while isinstance(base, (cst.Attribute, cst.Subscript)):
                key = base.attr.value if isinstance(base, cst.Attribute) else subscript_key(base)
                if key in CAPABILITY_KEYS:  # `response.agent_capabilities`: a response's capabilities
                    return True
                base = base.value
            if base is not None and self.values.kind(base, env) in (INIT, INIT_DICT):
                return True
        return False

    def _fixtures_clean(self, function: cst.FunctionDef) -> bool:
        """No parameter is a fixture of this file that reads the field (its reads are not the test's to rewrite)."""
        functions = self.values.functions
        return not any(
            p.name.value in functions and p.name.value != function.name.value and self.values.reads_field(p.name.value)
            for p in params(function)
        )

    def _tainted(self, function: cst.FunctionDef, env: dict[str, str]) -> set[str]:
        """Names a value read from the field flows into."""
        tainted = {
            p.name.value
            for p in params(function)
            if p.name.value in self.values.functions
            and p.name.value != function.name.value
            and self.values.reads_field(p.name.value)
        }
        pairs = list(assignments(function, loops=True))
        changed = True
        while changed:
            changed = False
            for target, value in pairs:
                if target in tainted or value is None:
                    continue
                if set(mentions(value)) & tainted or any(not r.absent for r in self.values.refs(value, env)):
                    tainted.add(target)
                    changed = True
        return tainted

    def _unit(self, statement: cst.BaseStatement, env: dict[str, str], tainted: set[str]) -> _Unit:
        target, value = simple_assignment(statement)
        uses = self._uses(value if target is not None and value is not None else statement)
        refs = self.values.refs(statement, env)
        present = [r for r in refs if not r.absent]
        asserting = is_assertion(statement)
        if present or uses & tainted:
            bases = tuple(self.context.code(p, 200) for r in present if r.base is not None for p in prefixes(r.base))
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
        for value in legacy_keyword_values(self.values, node):
            counts.subtract(mentions(value))
        return frozenset(name for name, count in counts.items() if count > 0)

    def _about_field(self, node: cst.CSTNode, env: dict[str, str], tainted: set[str]) -> bool:
        return bool(set(mentions(node)) & tainted) or any(not r.absent for r in self.values.refs(node, env))

    def _mixed(self, statement: cst.BaseStatement, env: dict[str, str], tainted: set[str]) -> bool:
        """An assertion about the field that also checks something else."""
        if isinstance(statement, cst.SimpleStatementLine):
            if len(statement.body) != 1:
                return True
            small = statement.body[0]
            if isinstance(small, cst.Assert):
                operands = and_operands(small.test)
            elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and len(small.value.args) == 1:
                operands = and_operands(small.value.args[0].value)
            else:
                return False
            about = [self._about_field(o, env, tainted) for o in operands]
            bases = {
                self.context.code(p, 200)
                for o, a in zip(operands, about)
                if a
                for r in self.values.refs(o, env)
                if r.base is not None
                for p in prefixes(r.base)
            }
            # `X is not None and X.slash_commands`: the guard goes with the field.
            return any(
                not a and self._guarded(cst.SimpleStatementLine([cst.Assert(o)])) not in bases
                for o, a in zip(operands, about)
            )
        # A compound statement: about the field in its header, or in each assertion inside.
        head = header(statement)
        if head is not None and self._about_field(head, env, tainted):
            return False
        finder = Assertions()
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
        elif (
            isinstance(test, cst.Call)
            and isinstance(test.func, cst.Name)
            and test.func.value == "isinstance"
            and test.args
        ):
            test = test.args[0].value
        if isinstance(test, (cst.Name, cst.Attribute)):
            return self.context.code(test, 200)
        return None


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
