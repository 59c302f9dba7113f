"""What `compat` and `leftovers` read of a test file, `PlannedTests`: `TestFile` (the
package's `__init__`) calls them, so they know it by this shape, not by importing it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections import Counter

    import libcst as cst

    from acp_migrate.cst.names import ImportTable
    from acp_migrate.rules.context import FileContext
    from acp_migrate.rules.shared.legacy_tests.plans import ClassPlan, TestPlan


class PlannedTests(Protocol):
    context: FileContext
    module: cst.Module
    imports: ImportTable
    module_mentions: Counter[str]
    plans: dict[cst.FunctionDef, TestPlan]
    classes: dict[cst.ClassDef, ClassPlan]
    owner: dict[cst.FunctionDef, cst.ClassDef]

    def removes(self, plan: TestPlan) -> bool: ...

    def removes_class(self, plan: ClassPlan) -> bool: ...

    def removed_nodes(self) -> set[cst.CSTNode]: ...

    def compat_anchor(self) -> cst.CSTNode | None: ...
