"""Run every rule over a module in one traversal, and apply their edits in one pass."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import libcst as cst
from libcst.metadata.position_provider import NEWLINE_RE

from acp_migrate.cst import layout
from acp_migrate.cst.positions import positions_of
from acp_migrate.cst.walk import walk
from acp_migrate.rules.base import Rule
from acp_migrate.rules.context import FileContext
from acp_migrate.rules.edits import Edits

Hook = Callable[[cst.CSTNode], object]


class _NodeKind:
    """What the dispatcher does for one node type, worked out once per type: the
    isinstance checks against LibCST's abstract classes cost more than the rules."""

    __slots__ = ("import_", "scope", "statement", "visit", "leave")

    def __init__(self, node_type: type, visit: dict[str, list[Hook]], leave: dict[str, list[Hook]]) -> None:
        self.import_ = issubclass(node_type, (cst.Import, cst.ImportFrom))
        self.scope = issubclass(node_type, (cst.ClassDef, cst.FunctionDef))
        self.statement = issubclass(node_type, cst.BaseStatement)
        self.visit = tuple(visit.get(node_type.__name__, ()))
        self.leave = tuple(leave.get(node_type.__name__, ()))


class RuleDispatcher(cst.CSTVisitor):
    """Calls each rule's `visit_<Node>` / `leave_<Node>` methods, keeping scope and imports
    up to date on the shared context first."""

    def __init__(self, context: FileContext, rules: Sequence[Rule], skip: Collection[cst.CSTNode] = ()) -> None:
        self.context = context
        # Statements visited without their children (they cannot matter; engine/analysis/hollow.py).
        self._skip = skip
        self._visit: dict[str, list[Hook]] = {}
        self._leave: dict[str, list[Hook]] = {}
        self._kinds: dict[type, _NodeKind] = {}
        for rule in rules:
            for attribute in dir(type(rule)):
                if attribute.startswith("visit_"):
                    self._visit.setdefault(attribute[6:], []).append(getattr(rule, attribute))
                elif attribute.startswith("leave_"):
                    self._leave.setdefault(attribute[6:], []).append(getattr(rule, attribute))

    def _kind(self, node: cst.CSTNode) -> _NodeKind:
        kind = self._kinds.get(type(node))
        if kind is None:
            kind = self._kinds[type(node)] = _NodeKind(type(node), self._visit, self._leave)
        return kind

    def on_visit(self, node: cst.CSTNode) -> bool:
        context = self.context
        lineage = context.lineage
        if lineage:
            context.parents[node] = lineage[-1]
        lineage.append(node)
        kind = self._kind(node)
        if kind.import_:
            context.imports.add(node)
        elif kind.scope:
            context.scopes.append(node)
        if kind.statement:
            context.statements.append(node)
        for hook in kind.visit:
            hook(node)
        return node not in self._skip

    def on_leave(self, original_node: cst.CSTNode) -> None:
        context = self.context
        kind = self._kinds[type(original_node)]
        for hook in kind.leave:
            hook(original_node)
        if kind.scope:
            context.scopes.pop()
        if kind.statement:
            context.statements.pop()
        context.lineage.pop()


class _Reused(cst.CSTTransformer):
    """Inside a node's replacement, the replacements of the original's own descendants: a
    rule rebuilding a call around an argument that another rule rewrites (a transform
    copies the nodes it keeps, so they are found by their code)."""

    def __init__(self, inner: list[tuple[cst.CSTNode, cst.CSTNode]]) -> None:
        self.inner = inner

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode):  # type: ignore[override]
        for old, new in self.inner:
            if type(original_node) is type(old) and original_node.deep_equals(old):
                return new
        return updated_node


def _descendants(node: cst.CSTNode) -> set[cst.CSTNode]:
    found: set[cst.CSTNode] = set()
    stack = list(node.children)
    while stack:
        child = stack.pop()
        found.add(child)
        stack.extend(child.children)
    return found


class EditApplier(cst.CSTTransformer):
    """Applies `Edits` (keyed by nodes of the original tree) in one transform, fixing
    the layout of the lists and bodies they touch."""

    def __init__(
        self,
        edits: Edits,
        parents: dict[cst.CSTNode, cst.CSTNode] | None = None,
        *,
        line_length: int | None = None,
        indent: str = "    ",
    ) -> None:
        self.edits = edits
        self.parents = parents
        # A call that lost arguments joins one line again where it now fits, as the
        # formatter would have written it (`line_length`: the project's; None: never).
        self.line_length = line_length
        self.indent, self.indent_width = indent, len(indent.expandtabs(4))
        self.shrunk: list[cst.Call] = []
        # Per statement, the replacements to lay out to the line length (`Edits.fitted`).
        self.fitting: dict[cst.CSTNode, list[tuple[cst.Call, cst.Call]]] = {}
        # With the parent of every node, only the paths down to edited nodes are
        # rebuilt; the rest of the tree is shared as it is.
        self.dirty: set[cst.CSTNode] | None = None
        if parents is not None:
            self.dirty = set()
            for node in (
                *edits.removed,
                *edits.replaced,
                *edits.inserted_after,
                *edits.inserted_before,
                *edits.comments,
            ):
                while node is not None and node not in self.dirty:
                    self.dirty.add(node)
                    node = parents.get(node)

    def on_visit(self, node: cst.CSTNode) -> bool:
        return self.dirty is None or node in self.dirty

    def _removed_indices(self, nodes: Sequence[cst.CSTNode]) -> set[int]:
        return {i for i, node in enumerate(nodes) if node in self.edits.removed}

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode):  # type: ignore[override]
        edits = self.edits
        replacement = edits.replaced.get(original_node)
        if replacement is not None:
            # A replacement may reuse nodes another edit replaces (a call rebuilt around an
            # argument another rule rewrites): those edits hold inside it too.
            if len(edits.replaced) > 1:
                below = _descendants(original_node)
                inner = [(old, new) for old, new in edits.replaced.items() if old in below]
                if inner:
                    replacement = replacement.visit(_Reused(inner))
            if original_node in edits.fitted and self.parents is not None and self.line_length is not None:
                statement = self.parents[original_node]
                while not isinstance(statement, cst.BaseStatement):
                    statement = self.parents[statement]
                self.fitting.setdefault(statement, []).append((original_node, replacement))
            return replacement
        comments = edits.comments.get(original_node)
        if comments:
            updated_node = updated_node.with_changes(
                leading_lines=[
                    *updated_node.leading_lines,
                    *(cst.EmptyLine(comment=cst.Comment(text)) for text in comments),
                ]
            )
        if original_node in self.fitting:
            updated_node = self._fitted(original_node, updated_node)
        if isinstance(original_node, cst.Call):
            removed = self._removed_indices(original_node.args)
            if not removed:
                return updated_node
            shrunk = layout.remove_call_args(updated_node, removed)
            self.shrunk.append(shrunk)
            return shrunk
        if isinstance(original_node, cst.SimpleStatementLine) and self.shrunk and self.line_length is not None:
            return self._joined(original_node, updated_node)
        if isinstance(original_node, cst.Dict):
            removed = self._removed_indices(original_node.elements)
            return layout.remove_dict_elements(updated_node, removed) if removed else updated_node
        if isinstance(original_node, cst.Parameters):
            if any(p in edits.removed for p in original_node.children):
                return layout.remove_params(original_node, updated_node, edits.removed)
            return updated_node
        if isinstance(original_node, cst.ImportFrom) and not isinstance(original_node.names, cst.ImportStar):
            removed = self._removed_indices(original_node.names)
            return layout.remove_import_names(updated_node, removed) if removed else updated_node
        if isinstance(original_node, cst.Import):
            removed = self._removed_indices(original_node.names)
            return layout.remove_plain_import_names(updated_node, removed) if removed else updated_node
        if isinstance(original_node, (cst.Module, cst.IndentedBlock)):
            return self._edit_body(original_node, updated_node)
        return updated_node

    def _joined(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        """`updated` with its shrunk calls on one line when the whole statement then fits."""
        shrunk, self.shrunk = self.shrunk, []
        if self.parents is None:
            return updated
        depth = self._depth(original)
        for call in shrunk:
            flat = layout.joined_call(call)
            if flat is None:
                continue
            candidate = updated.deep_replace(call, flat)
            code = cst.Module([]).code_for_node(candidate.with_changes(leading_lines=[])).rstrip("\r\n")
            if "\n" not in code and depth * self.indent_width + len(code) <= self.line_length:
                updated = candidate
        return updated

    def _fitted(self, original: cst.BaseStatement, updated: cst.BaseStatement) -> cst.BaseStatement:
        """`updated` with the calls replacing its nodes broken to the line length where
        they do not fit as they land (`layout.broken_to_fit`), each from the outermost
        bracket holding it on its line, as black breaks the line's last bracket first."""
        breakable: dict[layout.Bracketed, set[cst.CSTNode]] = {}  # outermost -> what breaks
        for replaced, call in self.fitting.pop(original):
            top, nodes = _breakable(updated, replaced, call)
            breakable.setdefault(top, set()).update(nodes)
        alone = cst.Module([updated])  # the block's indentation left out of its lines
        spans = positions_of(alone, list(breakable))
        lines = NEWLINE_RE.split(alone.code)
        block = self._depth(original) * self.indent_width
        fitted: list[tuple[cst.CSTNode, cst.CSTNode]] = []
        for top, nodes in breakable.items():
            if top not in spans:  # an outer edit took it apart (`sessionUpdate(Notification(...))` -> keywords)
                continue
            first, last = lines[spans[top].start.line - 1], lines[spans[top].end.line - 1]
            broken = layout.broken_to_fit(
                top,
                first[: len(first) - len(first.lstrip())],
                block + len(first[: spans[top].start.column].expandtabs(4)),
                len(last) - spans[top].end.column,
                block=block,
                unit=self.indent,
                line_length=self.line_length,
                breakable=nodes,
            )
            fitted.append((top, broken))
        return updated.visit(_Reused(fitted))

    def _depth(self, statement: cst.BaseStatement) -> int:
        """How many blocks `statement` (of the original tree) is in."""
        depth = 0
        node = self.parents.get(statement)
        while node is not None:
            depth += isinstance(node, cst.IndentedBlock)
            node = self.parents.get(node)
        return depth

    def _edit_body(self, original_node, updated_node):
        removed = self._removed_indices(original_node.body)
        after, before = self.edits.inserted_after, self.edits.inserted_before
        inserted = any(s in after or s in before for s in original_node.body)
        if not removed and not inserted:
            return updated_node
        body = list(updated_node.body)
        if inserted:
            body = []
            positions = []  # removal indices, mapped past the insertions
            # (no edit removes or adds a statement in place: the two bodies line up)
            for i, (original, updated) in enumerate(zip(original_node.body, updated_node.body, strict=True)):
                body.extend(before.get(original, ()))
                if i in removed:
                    positions.append(len(body))
                body.append(updated)
                body.extend(after.get(original, ()))
            removed = set(positions)
        leading = 0 in removed and bool(body) and body[0] is updated_node.body[0]
        body = layout.remove_statements(body, removed)
        headed = isinstance(updated_node, cst.Module) and any(line.comment for line in updated_node.header)
        if leading and body and isinstance(updated_node, cst.Module) and not headed:
            # The module's first statement went: the next one starts the file, as a
            # formatter writes it, with no blank line above it (its comments stay).
            lines = list(body[0].leading_lines)
            while lines and lines[0].comment is None:
                lines.pop(0)
            body[0] = body[0].with_changes(leading_lines=lines)
        if not body and isinstance(updated_node, cst.IndentedBlock):
            body = [cst.SimpleStatementLine([cst.Pass()])]
        return updated_node.with_changes(body=body)


def _breakable(
    statement: cst.BaseStatement, replaced: cst.Call, call: cst.Call
) -> tuple[layout.Bracketed, set[cst.CSTNode]]:
    """Where `call`, replacing `replaced` in `statement`, is broken from: the outermost
    call or list on its line that holds it item in item (the user's call it is passed
    to), else itself; and what may break: those, the calls `call` adds (their function
    none of those `replaced` calls: a call of the user's keeps its layout) and the lists
    holding them."""
    code = cst.Module([]).code_for_node
    called = {code(node.func) for node in _nodes_in(replaced, cst.Call)}
    breakable: set[cst.CSTNode] = {node for node in _nodes_in(call, cst.Call) if code(node.func) not in called}
    breakable.update(
        node for node in _nodes_in(call, cst.List) if any(item.value in breakable for item in node.elements)
    )
    top: layout.Bracketed = call
    if "\n" in code(call):
        return top, breakable
    ancestors: list[cst.CSTNode] = []

    class Path(cst.CSTVisitor):
        def __init__(self) -> None:
            self.stack: list[cst.CSTNode] = []

        def on_visit(self, node: cst.CSTNode) -> bool:
            if node is call:
                ancestors.extend(self.stack)
            self.stack.append(node)
            return not ancestors

        def on_leave(self, node: cst.CSTNode) -> None:
            self.stack.pop()

    walk(statement, Path())
    while len(ancestors) >= 2:
        item, holder = ancestors.pop(), ancestors.pop()
        held = isinstance(item, (cst.Arg, cst.BaseElement)) and item.value is top
        if not (held and isinstance(holder, (cst.Call, cst.List))) or "\n" in code(holder):
            break
        top = holder
        breakable.add(top)
    return top, breakable


def _nodes_in(node: cst.CSTNode, kind: type[cst.CSTNode]) -> list[cst.CSTNode]:
    found: list[cst.CSTNode] = []

    class Nodes(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, kind):
                found.append(node)
            return True

    walk(node, Nodes())
    return found
