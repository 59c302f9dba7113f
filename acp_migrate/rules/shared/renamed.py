"""A schema class of the SDK renamed by a release (0.8's numbered unions, 0.9's renames):
what the rules that move code across such a release share. The import names the new
class in place of the old, and every mention of the name it bound follows; a mention
through the module (`schema.AuthMethod`) is renamed where it stands.

Also the reports of names a release removed with no successor (`Removal`): 0.8's
`TerminalHandle`, 0.11's model picker, 1.0's env-var authentication.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from acp_migrate.rules.base import Report

if TYPE_CHECKING:
    import libcst as cst

    from acp_migrate.rules.context import FileContext


def shown(sdk_release: str) -> str:
    """`0.8.0` -> `0.8`, as the release notes name it."""
    return sdk_release.removesuffix(".0")


class Renaming:
    """What a rule renaming SDK names declares (`renames`, old -> new in `acp.schema`;
    `exported`: the old names `acp` exports too) and visits: mix it into the `Rule`."""

    renames: ClassVar[Mapping[str, str]]
    exported: ClassVar[frozenset[str]] = frozenset()
    context: FileContext
    code: ClassVar[str]
    sdk_release: ClassVar[str | None]

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        import libcst as cst

        from acp_migrate.cst.names import dotted_name

        module = _sdk_module(node)
        if module not in ("acp", "acp.schema"):
            return
        known = self.renames if module == "acp.schema" else {n: self.renames[n] for n in self.exported}
        for alias in node.names:
            old = dotted_name(alias.name)
            if old not in known:
                continue
            with self.context.fix(Report(alias, self.code, self._message(old, module), True)):
                self.context.replace(alias.name, cst.Name(known[old]))
                if alias.asname is None:
                    for mention in _mentions(self.context.module, old):
                        self.context.replace(mention, cst.Name(known[old]))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        import libcst as cst

        module, _, old = (self.context.resolve(node) or "").rpartition(".")
        if (
            old not in self.renames
            or module not in ("acp", "acp.schema")
            or module == "acp"
            and old not in self.exported
        ):
            return
        with self.context.fix(Report(node, self.code, self._message(old, module), True)):
            self.context.replace(node.attr, cst.Name(self.renames[old]))

    def _message(self, old: str, module: str) -> str:
        return f"`{old}` is `{self.renames[old]}` from SDK {shown(self.sdk_release or '')} on (`{module}`)"


class Removal:
    """What a rule reporting SDK names a release removed with no successor declares
    (`why`: name -> what a person must decide) and visits: each import of one, and each
    read through the module, is a finding; nothing is edited. Mix it into the `Rule`."""

    why: ClassVar[Mapping[str, str]]
    context: FileContext
    code: ClassVar[str]
    sdk_release: ClassVar[str | None]

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        from acp_migrate.cst.names import dotted_name

        module = _sdk_module(node)
        if module is None or not (module == "acp" or module.startswith("acp.")):
            return
        for alias in node.names:
            name = dotted_name(alias.name)
            if name in self.why:
                self._report(alias, name)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        qualified = self.context.resolve(node)
        if qualified is not None and qualified.startswith("acp.") and node.attr.value in self.why:
            self._report(node, node.attr.value)

    def _report(self, node: cst.CSTNode, name: str) -> None:
        message = f"`{name}` is gone in SDK {shown(self.sdk_release or '')}: {self.why[name]}"
        self.context.report(Report(node, self.code, message, False))


def _sdk_module(node: cst.ImportFrom) -> str | None:
    """The module `from X import names` imports from, absolute and not `*`; else None."""
    import libcst as cst

    from acp_migrate.cst.names import dotted_name

    if node.module is None or node.relative or isinstance(node.names, cst.ImportStar):
        return None
    return dotted_name(node.module)


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
