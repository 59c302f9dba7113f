"""Reading an agent class across the project's files: the classes it inherits from (in
this module or another, `engine/execution/modules.py` finds the file) and the attribute
holding its connection; and the functions and classes that wrap its factory. Not a rule:
the rewire asks it.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from acp_migrate.cst.names import ImportTable, last_part
from acp_migrate.cst.walk import walk
from acp_migrate.rules.context import FileContext, all_params

# Types an attribute holding the agent's connection is annotated with, in the SDK
# releases and their forks (AgentPool annotates it with the `Client` protocol).
CONNECTION_TYPES = frozenset({"AgentSideConnection", "Client", "Connection"})
CONNECTION_NAMES = frozenset({"conn", "connection", "client"})
MAX_BASE_DEPTH = 6  # classes followed up an inheritance chain (and through re-exports)


class Module:
    """A module whose classes and functions the rewire reads: this file, or another of the project."""

    def __init__(self, identity: str | None, tree: cst.Module, imports: ImportTable) -> None:
        self.identity = identity
        self.tree = tree
        self.imports = imports
        # The last definition of a name wins, as at run time.
        self.definitions = {s.name.value: s for s in tree.body if isinstance(s, (cst.ClassDef, cst.FunctionDef))}
        self.classes = {name: s for name, s in self.definitions.items() if isinstance(s, cst.ClassDef)}

    @classmethod
    def of(cls, context: FileContext) -> Module:
        return cls(None, context.module, context.imports)


class _Imports(cst.CSTVisitor):
    """Import statements of a module, not those inside its functions or classes."""

    def __init__(self) -> None:
        self.table = ImportTable()

    def visit_Import(self, node: cst.Import) -> None:
        self.table.add(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.table.add(node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False


def _read(context: FileContext, identity: str, source: bytes) -> Module | None:
    """The module at `identity` as this file's analysis reads it: parsed once however
    often a name leads there (None: it cannot be parsed)."""
    read = context.shared(_modules_read)
    if identity not in read:
        try:
            tree = cst.parse_module(source)
        except (cst.ParserSyntaxError, RecursionError, UnicodeDecodeError):
            read[identity] = None
        else:
            imports = _Imports()
            walk(tree, imports)
            read[identity] = Module(identity, tree, imports.table)
    return read[identity]


def _modules_read(context: FileContext) -> dict[str, Module | None]:
    return {}


def class_of(
    context: FileContext, expression: cst.BaseExpression, module: Module
) -> tuple[cst.ClassDef, Module] | None:
    """The class `expression` names in `module`, defined there or imported from a file of
    the project; None for anything else (an SDK's class, a name not found)."""
    found = definition_of(context, expression, module)
    if found is None or not isinstance(found[0], cst.ClassDef):
        return None
    return found[0], found[1]


def definition_of(
    context: FileContext, expression: cst.BaseExpression, module: Module, depth: int = 0
) -> tuple[cst.ClassDef | cst.FunctionDef, Module] | None:
    """The class or function `expression` names in `module`, defined there or imported
    from a file of the project; None for anything else (the SDK's, a name not found)."""
    if isinstance(expression, cst.Name) and expression.value in module.definitions:
        return module.definitions[expression.value], module
    qualified = module.imports.resolve(expression)
    if context.modules is None or qualified is None or depth > MAX_BASE_DEPTH:
        return None
    module_name, _, name = qualified.rpartition(".")
    if not module_name:
        return None
    found = context.modules(module_name, module.identity)
    if found is None:
        return None
    other = _read(context, *found)
    if other is None:
        return None
    if name in other.definitions:
        return other.definitions[name], other
    if name in other.imports.bindings:  # re-exported, as packages' __init__ do
        return definition_of(context, cst.Name(name), other, depth + 1)
    return None


def lineage(
    context: FileContext, agent: cst.ClassDef, module: Module | None = None
) -> Iterator[tuple[cst.ClassDef, Module] | None]:
    """The class (of `module`, this one by default), then the project's classes it
    inherits from, nearest first (depth first; at most MAX_BASE_DEPTH up), each with its
    module, read as they are asked for; None for a base that is not one (the SDK's, or a
    class fix cannot read)."""

    def up(node: cst.ClassDef, module: Module, depth: int) -> Iterator[tuple[cst.ClassDef, Module] | None]:
        yield node, module
        for base in node.bases:
            if base.keyword is None:
                parent = class_of(context, base.value, module) if depth < MAX_BASE_DEPTH else None
                yield from (up(*parent, depth + 1) if parent is not None else [None])

    return up(agent, module or Module.of(context), 0)


def connection_attribute(context: FileContext, agent: cst.ClassDef) -> str | None:
    """The attribute of `self` that holds the connection: a class-level field annotated
    with a connection type, or a connection parameter of `__init__` or `on_connect`
    stored on `self`; looked for in the class, then in the project's classes it
    inherits from."""
    found = (_own_connection(*known) for known in lineage(context, agent) if known is not None)
    return next((attribute for attribute in found if attribute is not None), None)


def subclasses_connection_attribute(context: FileContext, mixin: cst.ClassDef) -> str | None:
    """For a class holding no connection (a mixin giving `initialize`), the attribute
    every class of this module made of it holds its connection in, when they agree."""
    made_of = {mixin.name.value}
    subclasses = []
    for statement in context.module.body:  # in order: a subclass of a subclass comes after it
        if isinstance(statement, cst.ClassDef) and any(
            base.keyword is None and isinstance(base.value, cst.Name) and base.value.value in made_of
            for base in statement.bases
        ):
            made_of.add(statement.name.value)
            subclasses.append(statement)
    found = {connection_attribute(context, subclass) for subclass in subclasses}
    return found.pop() if len(found) == 1 else None


def _own_connection(agent: cst.ClassDef, module: Module) -> str | None:
    def is_connection(annotation: cst.BaseExpression) -> bool:
        return _is_connection_type(module.imports, annotation)

    if not isinstance(agent.body, cst.IndentedBlock):
        return None
    hooks = []
    for statement in agent.body.body:
        if isinstance(statement, cst.FunctionDef) and statement.name.value in {"__init__", "on_connect"}:
            hooks.append(statement)
        if isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.AnnAssign):
            target = statement.body[0].target
            if isinstance(target, cst.Name) and is_connection(statement.body[0].annotation.annotation):
                return target.value
    for hook in hooks:
        attribute = _stored_connection(hook, is_connection) if isinstance(hook.body, cst.IndentedBlock) else None
        if attribute is not None:
            return attribute
    return None


def _stored_connection(hook: cst.FunctionDef, is_connection) -> str | None:
    """`attr` of `self.attr = conn` in `__init__` or `on_connect`, where `conn` is a
    connection parameter (any parameter of `on_connect`: the SDK passes it the connection)."""
    params = all_params(hook.params)[1:]
    connections = {
        param.name.value
        for param in params
        if param.name.value in CONNECTION_NAMES
        or param.annotation is not None
        and is_connection(param.annotation.annotation)
        or hook.name.value == "on_connect"
        and param is params[0]
    }
    for statement in hook.body.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Assign) and len(small.targets) == 1:
                target, value = small.targets[0].target, small.value
            elif isinstance(small, cst.AnnAssign) and small.value is not None:
                target, value = small.target, small.value
            else:
                continue
            if (
                isinstance(target, cst.Attribute)
                and isinstance(target.value, cst.Name)
                and target.value.value == "self"
                and isinstance(value, cst.Name)
                and value.value in connections
            ):
                return target.attr.value
    return None


def _is_connection_type(imports: ImportTable, annotation: cst.BaseExpression) -> bool:
    found = False

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            nonlocal found
            found = found or last_part(imports.resolve(node)) in CONNECTION_TYPES

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            nonlocal found
            found = found or node.attr.value in CONNECTION_TYPES
            return False

        def visit_SimpleString(self, node: cst.SimpleString) -> None:
            nonlocal found
            try:
                found = found or _is_connection_type(imports, cst.parse_expression(str(node.evaluated_value)))
            except cst.ParserSyntaxError:
                pass

    walk(annotation, Names())
    return found
