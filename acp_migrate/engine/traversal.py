"""Run every rule over a module in one traversal, and apply their edits in one pass."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from acp_migrate.cst import layout
from acp_migrate.rules.base import FileContext, Rule

Hook = Callable[[cst.CSTNode], object]


class RuleDispatcher(cst.CSTVisitor):
    """Calls each rule's `visit_<Node>` / `leave_<Node>` methods, keeping scope and imports
    up to date on the shared context first."""

    def __init__(self, context: FileContext, rules: Sequence[Rule]) -> None:
        self.context = context
        self._visit: dict[str, list[Hook]] = {}
        self._leave: dict[str, list[Hook]] = {}
        for rule in rules:
            for attribute in dir(type(rule)):
                if attribute.startswith("visit_"):
                    self._visit.setdefault(attribute[6:], []).append(getattr(rule, attribute))
                elif attribute.startswith("leave_"):
                    self._leave.setdefault(attribute[6:], []).append(getattr(rule, attribute))

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, (cst.Import, cst.ImportFrom)):
            self.context.imports.add(node)
        elif isinstance(node, (cst.ClassDef, cst.FunctionDef)):
            self.context.scopes.append(node)
        for hook in self._visit.get(type(node).__name__, ()):
            hook(node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        for hook in self._leave.get(type(original_node).__name__, ()):
            hook(original_node)
        if isinstance(original_node, (cst.ClassDef, cst.FunctionDef)):
            self.context.scopes.pop()


class EditApplier(cst.CSTTransformer):
    """Removes and replaces nodes (identified in the original tree), fixing the layout
    of the lists and bodies they leave."""

    def __init__(self, removed: set[cst.CSTNode], replaced: dict[cst.CSTNode, cst.CSTNode]) -> None:
        self.removed = removed
        self.replaced = replaced

    def _removed_indices(self, nodes: Sequence[cst.CSTNode]) -> set[int]:
        return {i for i, node in enumerate(nodes) if node in self.removed}

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode):  # type: ignore[override]
        replacement = self.replaced.get(original_node)
        if replacement is not None:
            return replacement
        if isinstance(original_node, cst.Call):
            removed = self._removed_indices(original_node.args)
            return layout.remove_call_args(updated_node, removed) if removed else updated_node
        if isinstance(original_node, cst.Dict):
            removed = self._removed_indices(original_node.elements)
            return layout.remove_dict_elements(updated_node, removed) if removed else updated_node
        if isinstance(original_node, cst.Parameters):
            if any(p in self.removed for p in original_node.children):
                return layout.remove_params(original_node, updated_node, self.removed)
            return updated_node
        if isinstance(original_node, cst.ImportFrom) and not isinstance(original_node.names, cst.ImportStar):
            removed = self._removed_indices(original_node.names)
            return layout.remove_import_names(updated_node, removed) if removed else updated_node
        if isinstance(original_node, cst.Import):
            removed = self._removed_indices(original_node.names)
            return layout.remove_plain_import_names(updated_node, removed) if removed else updated_node
        if isinstance(original_node, (cst.Module, cst.IndentedBlock)):
            removed = self._removed_indices(original_node.body)
            if not removed:
                return updated_node
            body = layout.remove_statements(updated_node.body, removed)
            if not body and isinstance(updated_node, cst.IndentedBlock):
                body = [cst.SimpleStatementLine([cst.Pass()])]
            return updated_node.with_changes(body=body)
        return updated_node
