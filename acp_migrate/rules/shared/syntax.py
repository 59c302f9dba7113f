"""Small readings of Python syntax the rules and the test analysis share: string
literals, keys, assignment targets. No judgement here."""

from __future__ import annotations

import libcst as cst


def string_value(node: cst.BaseExpression | None) -> str | None:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def string_key(element: cst.BaseDictElement) -> str | None:
    """The string key of a dict literal's `"key": value` entry, else None."""
    return string_value(element.key) if isinstance(element, cst.DictElement) else None


def subscript_key(node: cst.Subscript) -> str | None:
    """The string key of `x["key"]`, else None."""
    if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        return string_value(node.slice[0].slice.value)
    return None


def is_dict_call(node: cst.BaseExpression) -> bool:
    """`dict(...)`, the builtin (a name the module does not rebind is assumed to be it)."""
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "dict"


def assignment_targets(node: cst.Assign | cst.AnnAssign | cst.AugAssign) -> list[cst.BaseExpression]:
    """What an assignment stores into, tuple and list targets unpacked."""
    if isinstance(node, cst.Assign):
        roots = [target.target for target in node.targets]
    else:
        roots = [node.target]
    found: list[cst.BaseExpression] = []
    while roots:
        target = roots.pop(0)
        if isinstance(target, (cst.Tuple, cst.List)):
            roots.extend(element.value for element in target.elements)
        elif isinstance(target, cst.StarredElement):
            roots.append(target.value)
        else:
            found.append(target)
    return found


def target_names(target: cst.CSTNode) -> list[str]:
    """The names a target binds (`a`, `a, (b, *c)`); none for attributes and subscripts."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [name for element in target.elements for name in target_names(element.value)]
    if isinstance(target, cst.StarredElement):
        return target_names(target.value)
    return []
