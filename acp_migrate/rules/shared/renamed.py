"""A schema class of the SDK renamed by a release (0.8's numbered unions, 0.9's renames):
what the rules that move code across such a release share. The import names the new
class in place of the old, and every mention of the name it bound follows; a mention
through the module (`schema.AuthMethod`) is renamed where it stands.

`renames` maps each old name to its new one, both in `acp.schema`; `exported`: the old
names `acp` itself exports too (under the new name from the release on).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from acp_migrate.rules.base import Report

if TYPE_CHECKING:
    import libcst as cst

    from acp_migrate.rules.context import FileContext


class Renamer:
    """Visits for one rule: `import_from` and `attribute` from its `visit_` methods."""

    def __init__(
        self, context: FileContext, code: str, release: str, renames: Mapping[str, str], exported: frozenset[str]
    ) -> None:
        self.context = context
        self.code = code
        self.release = release
        self.renames = renames
        self.exported = exported

    def import_from(self, node: cst.ImportFrom) -> None:
        import libcst as cst

        from acp_migrate.cst.names import dotted_name

        module = dotted_name(node.module) if node.module is not None and not node.relative else None
        if module not in ("acp", "acp.schema") or isinstance(node.names, cst.ImportStar):
            return
        known = self.renames if module == "acp.schema" else {n: self.renames[n] for n in self.exported}
        for alias in node.names:
            old = dotted_name(alias.name)
            if old not in known:
                continue
            new = known[old]
            message = f"`{old}` is `{new}` from SDK {self.release} on (`{module}`)"
            with self.context.fix(Report(alias, self.code, message, True)):
                self.context.replace(alias.name, cst.Name(new))
                if alias.asname is None:
                    for mention in _mentions(self.context.module, old):
                        self.context.replace(mention, cst.Name(new))

    def attribute(self, node: cst.Attribute) -> None:
        import libcst as cst

        qualified = self.context.resolve(node)
        if qualified is None or "." not in qualified:
            return
        module, _, old = qualified.rpartition(".")
        if (
            old not in self.renames
            or module not in ("acp", "acp.schema")
            or module == "acp"
            and old not in self.exported
        ):
            return
        new = self.renames[old]
        message = f"`{old}` is `{new}` from SDK {self.release} on (`{module}`)"
        with self.context.fix(Report(node, self.code, message, True)):
            self.context.replace(node.attr, cst.Name(new))


def _mentions(module: cst.Module, name: str) -> list[cst.Name]:
    """The `Name` nodes that read or bind `name` as a variable (not an attribute after a
    dot, a keyword argument, a parameter, an import or a definition's name)."""
    import libcst as cst

    found: list[cst.Name] = []

    class Mentions(cst.CSTVisitor):
        def visit_Import(self, node: cst.Import) -> bool:
            return False

        def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
            return False

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            node.value.visit(self)
            return False

        def visit_Arg(self, node: cst.Arg) -> bool:
            node.value.visit(self)
            return False

        def visit_Param(self, node: cst.Param) -> bool:
            for part in (node.annotation, node.default):
                if part is not None:
                    part.visit(self)
            return False

        def visit_Name(self, node: cst.Name) -> None:
            if node.value == name:
                found.append(node)

    for statement in module.body:
        statement.visit(Mentions())
    return found


class Removed:
    """Visits for a rule reporting SDK names a release removed with no successor: each
    import of one, and each read through the module, is a finding saying `why` (what a
    person must decide); nothing is edited."""

    def __init__(self, context: FileContext, code: str, release: str, why: Mapping[str, str]) -> None:
        self.context = context
        self.code = code
        self.release = release
        self.why = why

    def import_from(self, node: cst.ImportFrom) -> None:
        import libcst as cst

        from acp_migrate.cst.names import dotted_name

        module = dotted_name(node.module) if node.module is not None and not node.relative else None
        if (
            module is None
            or not (module == "acp" or module.startswith("acp."))
            or isinstance(node.names, cst.ImportStar)
        ):
            return
        for alias in node.names:
            name = dotted_name(alias.name)
            if name in self.why:
                self._report(alias, name)

    def attribute(self, node: cst.Attribute) -> None:
        qualified = self.context.resolve(node)
        if qualified is not None and qualified.startswith("acp.") and node.attr.value in self.why:
            self._report(node, node.attr.value)

    def _report(self, node: cst.CSTNode, name: str) -> None:
        message = f"`{name}` is gone in SDK {self.release}: {self.why[name]}"
        self.context.report(Report(node, self.code, message, False))
