"""Remove imports that the rules' edits left unused.

Only names that were mentioned before the edits and are mentioned nowhere after
them go: imports that were already unused, or marked `# noqa` for F401 (deliberate
re-exports), are not ours to touch. An `if TYPE_CHECKING:` block left empty goes
with them, and so, on the next round, does the `TYPE_CHECKING` import itself.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

import libcst as cst

from acp_migrate.cst.names import dotted_name, mentions
from acp_migrate.cst.walk import walk
from acp_migrate.engine.analysis.traversal import EditApplier
from acp_migrate.rules.edits import Edits

_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.IGNORECASE)
_MAX_ROUNDS = 4  # imports, then TYPE_CHECKING blocks, then their import: 3 suffice


def _bound_name(alias: cst.ImportAlias, plain_import: bool) -> str:
    if alias.asname is not None:
        return alias.asname.name.value
    full = dotted_name(alias.name) or ""
    return full.split(".")[0] if plain_import else full


def _silences_unused_import(module: cst.Module, statement: cst.CSTNode) -> bool:
    for match in _NOQA.finditer(module.code_for_node(statement)):
        codes = match.group("codes")
        if codes is None or "F401" in codes.upper():
            return True
    return False


def _is_type_checking_block(node: cst.CSTNode) -> bool:
    return (
        isinstance(node, cst.If)
        and node.orelse is None
        and (dotted_name(node.test) or "").split(".")[-1] == "TYPE_CHECKING"
    )


class _ImportPlanner(cst.CSTVisitor):
    def __init__(self, module: cst.Module, before: Counter[str], after: Counter[str]) -> None:
        self.module = module
        self.before = before
        self.after = after
        self.removed: set[cst.CSTNode] = set()

    def _orphaned(self, name: str) -> bool:
        return self.before.get(name, 0) > 0 and self.after.get(name, 0) == 0

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        if len(node.body) != 1 or not isinstance(node.body[0], (cst.Import, cst.ImportFrom)):
            return False
        statement = node.body[0]
        if isinstance(statement, cst.ImportFrom) and isinstance(statement.names, cst.ImportStar):
            return False
        plain = isinstance(statement, cst.Import)
        orphans = [a for a in statement.names if self._orphaned(_bound_name(a, plain))]
        if not orphans or _silences_unused_import(self.module, node):
            return False
        if len(orphans) == len(statement.names):
            self.removed.add(node)
        else:
            self.removed.update(orphans)
        return False

    def leave_If(self, original_node: cst.If) -> None:
        body = original_node.body
        if (
            _is_type_checking_block(original_node)
            and isinstance(body, cst.IndentedBlock)
            and all(statement in self.removed for statement in body.body)
        ):
            self.removed.difference_update(body.body)
            self.removed.add(original_node)


def may_orphan_imports(edits: Edits, imported: Iterable[str]) -> bool:
    """Whether the edits took out a mention of an imported name (only then can an
    import have lost its last mention: skip the whole cleanup otherwise)."""
    taken: Counter[str] = Counter()
    for node in edits.removed:
        taken.update(mentions(node))
    for original, replacement in edits.replaced.items():
        taken.update(mentions(original))
        taken.subtract(mentions(replacement))
    return any(taken[name] > 0 for name in imported)


def remove_orphaned_imports(module: cst.Module, before: Counter[str]) -> cst.Module:
    """`before` counts name mentions in the file as it was before any edit."""
    for _ in range(_MAX_ROUNDS):
        after = mentions(module)
        planner = _ImportPlanner(module, before, after)
        walk(module, planner)
        if not planner.removed:
            break
        module = module.visit(EditApplier(Edits(removed=planner.removed)))
    return module
