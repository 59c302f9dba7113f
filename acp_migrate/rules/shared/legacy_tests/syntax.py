"""Small readings of test code the test modules share (`legacy_tests` and the modules
it is made of): assignments, assertions, bodies, literals. No judgement here."""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from acp_migrate.cst.layout import is_docstring
from acp_migrate.cst.walk import walk
from acp_migrate.rules.shared.syntax import target_names


class Assertions(cst.CSTVisitor):
    """Assertions below a node (not in nested definitions)."""

    def __init__(self) -> None:
        self.found: list[cst.CSTNode] = []

    def visit_Assert(self, node: cst.Assert) -> None:
        self.found.append(node.test)

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value.startswith("assert"):
            self.found.append(node)

    def visit_With(self, node: cst.With) -> None:
        if raises(node):
            self.found.append(node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False


class Returns(cst.CSTVisitor):
    def __init__(self) -> None:
        self.values: list[cst.BaseExpression] = []

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None:
            self.values.append(node.value)

    def visit_Yield(self, node: cst.Yield) -> None:
        if isinstance(node.value, cst.BaseExpression):
            self.values.append(node.value)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


class AssignmentFinder(cst.CSTVisitor):
    def __init__(self, loops: bool) -> None:
        self.loops = loops
        self.pairs: list[tuple[str, cst.BaseExpression | None]] = []

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            for name in target_names(target.target):
                self.pairs.append((name, node.value))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        for name in target_names(node.target):
            self.pairs.append((name, node.value))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        for name in target_names(node.target):
            self.pairs.append((name, node.value))

    def visit_For(self, node: cst.For) -> None:
        if self.loops:
            for name in target_names(node.target):
                self.pairs.append((name, node.iter))

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if self.loops and node.asname is not None:
            for name in target_names(node.asname.name):
                self.pairs.append((name, node.item))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False


def assignments(function: cst.FunctionDef, loops: bool = False) -> list[tuple[str, cst.BaseExpression | None]]:
    finder = AssignmentFinder(loops)
    walk(function.body, finder)
    return finder.pairs


def simple_assignment(statement: cst.BaseStatement) -> tuple[str | None, cst.BaseExpression | None]:
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        small = statement.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            return small.targets[0].target.value, small.value
        if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.value is not None:
            return small.target.value, small.value
    return None, None


def is_assertion(statement: cst.BaseStatement) -> bool:
    finder = Assertions()
    walk(statement, finder)
    return bool(finder.found)


def header(statement: cst.BaseStatement) -> cst.CSTNode | None:
    if isinstance(statement, (cst.For,)):
        return statement.iter
    if isinstance(statement, (cst.If, cst.While)):
        return statement.test
    if isinstance(statement, cst.With):
        return cst.Tuple([cst.Element(item.item) for item in statement.items])
    return None


def and_operands(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.And):
        return and_operands(node.left) + and_operands(node.right)
    return [node]


def raises(node: cst.With) -> bool:
    for item in node.items:
        call = item.item
        if isinstance(call, cst.Call):
            func = call.func
            name = (
                func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
            )
            if name in ("raises", "assertRaises", "assertRaisesRegex"):
                return True
    return False


def prefixes(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    """`a.b.c` -> [a.b.c, a.b, a]."""
    found = [node]
    while isinstance(node, cst.Attribute):
        node = node.value
        found.append(node)
    return found


def params(function: cst.FunctionDef) -> list[cst.Param]:
    params = function.params
    return [*params.posonly_params, *params.params, *params.kwonly_params]


def body_of(function: cst.FunctionDef) -> list[cst.BaseStatement]:
    if not isinstance(function.body, cst.IndentedBlock):  # `def test(): assert ...`: one statement
        return [cst.SimpleStatementLine(list(function.body.body))]
    statements = list(function.body.body)
    if statements and is_docstring(statements[0]):
        statements = statements[1:]
    return statements


def class_body(node: cst.ClassDef) -> list[cst.BaseStatement]:
    return list(node.body.body) if isinstance(node.body, cst.IndentedBlock) else []


def top_level_statements(module: cst.Module) -> Iterable[cst.BaseStatement]:
    for statement in module.body:
        yield statement
        if isinstance(statement, (cst.If, cst.Try)) and isinstance(statement.body, cst.IndentedBlock):
            yield from statement.body.body


def is_name(node: cst.BaseExpression, value: str) -> bool:
    return isinstance(node, cst.Name) and node.value == value
