"""What goes with the tests fix removes: the fixtures and helpers of the file only they
used (and those only such fixtures used), and the module itself when it is left with
no test.

Any module-level function that is not a test counts, decorated or not: `check` reads
the file with the bodies and decorators of definitions without a legacy token cut
(engine/analysis/hollow.py), and must report what fix removes. One named in a string
in the file (`@pytest.mark.usefixtures("agent")`) or an `autouse` fixture is kept: its
users cannot be counted. A module goes only when
every test in it goes, no compatibility test takes a place in it, and nothing else in it
could be used from elsewhere (a class that is not a test class, code under an `if` that
is not the `__main__` guard).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

import libcst as cst

from acp_migrate.cst.names import mentions
from acp_migrate.cst.walk import walk
from acp_migrate.rules.shared import REMOVE
from acp_migrate.rules.shared.legacy_tests.syntax import params
from acp_migrate.rules.shared.syntax import string_value

if TYPE_CHECKING:
    from acp_migrate.rules.shared.legacy_tests.view import PlannedTests

_NAMES = re.compile(r"\s*\w+(?:\s*,\s*\w+)*\s*")


def removed_definitions(tests: PlannedTests) -> list[cst.CSTNode]:
    """The tests and test classes fix removes whole."""
    found: list[cst.CSTNode] = [c.node for c in tests.classes.values() if tests.removes_class(c)]
    found += [
        p.function
        for p in tests.plans.values()
        if p.fate == REMOVE and tests.removes(p) and tests.owner.get(p.function) not in found
    ]
    return found


def orphaned_fixtures(tests: PlannedTests) -> list[cst.FunctionDef]:
    """The module-level fixtures and helpers that only removed tests (or other such ones) use."""
    gone = removed_definitions(tests)
    if not gone:
        return []
    counts = _uses(tests.module)
    for definition in gone:
        counts.subtract(_uses(definition))
    used_by_gone = {name for definition in gone for name in _uses(definition)}
    named = _strings(tests.module)
    candidates = [
        s
        for s in tests.module.body
        if isinstance(s, cst.FunctionDef) and not _autouse(s) and s.name.value not in named and s not in tests.plans
    ]
    orphans: list[cst.FunctionDef] = []
    changed = True
    while changed:
        changed = False
        for fixture in candidates:
            name = fixture.name.value
            if fixture not in orphans and name in used_by_gone and counts[name] <= 0:
                orphans.append(fixture)
                uses = _uses(fixture)
                counts.subtract(uses)
                used_by_gone |= set(uses)
                changed = True
    return orphans


def left_without_tests(tests: PlannedTests) -> bool:
    """Every test of the module goes, and nothing in it is left for anyone else."""
    if not tests.plans or not all(p.fate == REMOVE and tests.removes(p) for p in tests.plans.values()):
        return False
    if not all(tests.removes_class(c) for c in tests.classes.values()) or tests.compat_anchor() is not None:
        return False
    for statement in tests.module.body:
        if isinstance(statement, cst.ClassDef) and statement not in tests.classes:
            return False  # a fake agent or a helper class: another module may import it
        if isinstance(statement, cst.If) and "__name__" not in mentions(statement.test):
            return False
        if not isinstance(statement, (cst.SimpleStatementLine, cst.FunctionDef, cst.ClassDef, cst.If)):
            return False
    return True


def _uses(node: cst.CSTNode) -> Counter[str]:
    """The names `node` mentions, and the parameters of its functions: how tests ask for fixtures."""
    counts = mentions(node)
    finder = _Functions()
    walk(node, finder)
    for function in finder.found:
        counts.update(p.name.value for p in params(function))
    return counts


class _Functions(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: list[cst.FunctionDef] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.found.append(node)


def _autouse(function: cst.FunctionDef) -> bool:
    return any(
        isinstance(d.decorator, cst.Call)
        and any(a.keyword is not None and a.keyword.value == "autouse" for a in d.decorator.args)
        for d in function.decorators
    )


def _strings(module: cst.Module) -> set[str]:
    finder = _Strings()
    walk(module, finder)
    return finder.found


class _Strings(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: set[str] = set()

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        value = string_value(node)
        if value is not None and _NAMES.fullmatch(value):  # `"agent"`, `"agent, caps"`: not prose
            self.found.update(name.strip() for name in value.split(","))
