"""A read-only traversal: `walk(node, visitor)` calls a visitor's `on_visit` and
`on_leave` on every node below `node`, in the order `node.visit(visitor)` would.

LibCST's own `visit` rebuilds every node it passes (a new dataclass, validated) and
a visitor throws the copy away: three quarters of a traversal's time, and a third of
what `fix` spends on a file. `walk` reads the children in place instead. It does not
call `on_visit_attribute` / `on_leave_attribute` (no visitor here uses them).

The order of a node type's children is LibCST's: recorded from the first node of the
type by running its `_visit_and_replace_children` with a visitor that does not
descend. A few types visit a field only when it is set (an f-string's
`format_spec`); a later node with such a field set is recorded again, so the order
then includes it. tests/test_walk.py holds `walk` to `visit`'s sequence of calls.
"""

from __future__ import annotations

import dataclasses

import libcst as cst

# type -> (its children's fields in visiting order, the fields it did not visit
# because they were empty when it was recorded)
_FIELDS: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}


def walk(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    if visitor.on_visit(node):
        for name in _children_fields(node):
            value = getattr(node, name)
            if isinstance(value, cst.CSTNode):
                walk(value, visitor)
            elif type(value) in (tuple, list):
                for item in value:
                    if isinstance(item, cst.CSTNode):
                        walk(item, visitor)
    visitor.on_leave(node)


def _children_fields(node: cst.CSTNode) -> tuple[str, ...]:
    fields = _FIELDS.get(type(node))
    if fields is None or (fields[1] and any(_holds_nodes(getattr(node, name)) for name in fields[1])):
        fields = _FIELDS[type(node)] = _record(node)
    return fields[0]


def _holds_nodes(value: object) -> bool:
    if type(value) in (tuple, list):
        return any(isinstance(item, cst.CSTNode) for item in value)
    return isinstance(value, cst.CSTNode)


class _FieldRecorder(cst.CSTVisitor):
    def __init__(self) -> None:
        self.fields: list[str] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        return False

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        if attribute not in self.fields:
            self.fields.append(attribute)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        pass


def _record(node: cst.CSTNode) -> tuple[tuple[str, ...], tuple[str, ...]]:
    recorder = _FieldRecorder()
    node._visit_and_replace_children(recorder)
    visited = tuple(recorder.fields)
    empty = tuple(
        field.name
        for field in dataclasses.fields(node)
        if field.name not in visited and _is_empty(getattr(node, field.name))
    )
    return visited, empty


def _is_empty(value: object) -> bool:
    # (A field that holds a string or a number now never holds a node.)
    return value is None or isinstance(value, cst.MaybeSentinel) or (type(value) in (tuple, list) and not value)
