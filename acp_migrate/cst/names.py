"""Name resolution through imports, and counting which names a tree mentions.

Deliberately lighter than LibCST's ScopeProvider: the rules need "what does this
dotted name refer to" and "is this name still mentioned", not full scoping.
"""

from __future__ import annotations

import re
from collections import Counter

import libcst as cst

from acp_migrate.cst.walk import walk

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def dotted_name(node: cst.BaseExpression) -> str | None:
    """`a.b.c` for Name/Attribute chains, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted_name(node.value)
        return None if base is None else f"{base}.{node.attr.value}"
    return None


def module_name(node: cst.BaseExpression | None, relative: int = 0) -> str:
    dotted = dotted_name(node) if node is not None else ""
    return "." * relative + (dotted or "")


class ImportTable:
    """Local names bound by import statements, mapped to the qualified name they stand for."""

    def __init__(self) -> None:
        self.bindings: dict[str, str] = {}

    def add(self, node: cst.Import | cst.ImportFrom) -> None:
        if isinstance(node, cst.Import):
            for alias in node.names:
                full = dotted_name(alias.name) or ""
                if alias.asname is not None:
                    self.bindings[alias.asname.name.value] = full
                else:
                    top = full.split(".")[0]
                    self.bindings[top] = top
            return
        if isinstance(node.names, cst.ImportStar):
            return
        base = module_name(node.module, len(node.relative))
        for alias in node.names:
            original = dotted_name(alias.name) or ""
            local = alias.asname.name.value if alias.asname is not None else original
            self.bindings[local] = f"{base}.{original}" if base else original

    def resolve(self, node: cst.BaseExpression, *, local_names: frozenset[str] = frozenset()) -> str | None:
        """Qualified name of a Name/Attribute chain, or None when it is not resolvable.

        A bare name that no import binds resolves to itself (star imports, names
        defined in this module); an attribute chain must start at an imported name
        or one of `local_names`, so `self.AgentCapabilities` does not resolve.
        """
        if isinstance(node, cst.Name):
            return self.bindings.get(node.value, node.value)
        if isinstance(node, cst.Attribute):
            root = node
            while isinstance(root, cst.Attribute):
                root = root.value
            if not isinstance(root, cst.Name):
                return None
            if root.value not in self.bindings and root.value not in local_names:
                return None
            base = self.resolve(node.value, local_names=local_names)
            return None if base is None else f"{base}.{node.attr.value}"
        return None


def last_part(qualified: str | None) -> str | None:
    return None if qualified is None else qualified.rsplit(".", 1)[-1]


class MentionCounter(cst.CSTVisitor):
    """Counts mentions of each name: reads and writes alike, in every scope.

    Not counted: the names an import binds, attribute names after a dot, keyword
    argument names, parameter names and def/class names. Counted too: identifiers
    inside string annotations and strings listed in `__all__`, since removing an
    import they refer to would break them.
    """

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self._annotation_depth = 0

    def visit_Name(self, node: cst.Name) -> None:
        self.counts[node.value] += 1

    def visit_Import(self, node: cst.Import) -> bool:
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        walk(node.value, self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        walk(node.value, self)
        return False

    def visit_Param(self, node: cst.Param) -> bool:
        for part in (node.annotation, node.default):
            if part is not None:
                walk(part, self)
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        for part in (*node.decorators, node.params, node.returns, node.body):
            if part is not None:
                walk(part, self)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        for part in (*node.decorators, *node.bases, *node.keywords, node.body):
            walk(part, self)
        return False

    def visit_Annotation(self, node: cst.Annotation) -> None:
        self._annotation_depth += 1

    def leave_Annotation(self, original_node: cst.Annotation) -> None:
        self._annotation_depth -= 1

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        if self._annotation_depth:
            self.counts.update(_IDENTIFIER.findall(node.value[1:]))

    def visit_Assign(self, node: cst.Assign) -> None:
        if any(isinstance(t.target, cst.Name) and t.target.value == "__all__" for t in node.targets):
            self._count_all(node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name) and node.target.value == "__all__":
            self._count_all(node.value)

    def _count_all(self, value: cst.BaseExpression) -> None:
        if isinstance(value, (cst.List, cst.Tuple, cst.Set)):
            for element in value.elements:
                if isinstance(element.value, cst.SimpleString):
                    self.counts[element.value.evaluated_value] += 1


def mentions(node: cst.CSTNode) -> Counter[str]:
    counter = MentionCounter()
    walk(node, counter)
    return counter.counts
