"""ACP003 schema-slash-commands-field: projects that own their schema define the legacy
field themselves.

In a module that defines `class AgentCapabilities` or `class InitializeResponse`
(often subclassing the SDK's models), this rule removes: the `slash_commands` field
and its attribute docstring; the `slash_commands` parameter of their `create`
classmethods and `__init__` (a `.pyi` stub's too), with its entry in the docstring
(Google, NumPy or Sphinx style); and the keyword that forwards it inside them
(`cls(..., slash_commands=...)`, `super().__init__(..., slash_commands=...)`). A
parameter still used for anything else in the body is reported, not removed.

The field goes only when no caller that passes or reads it is left after the run
(ACP001/ACP002 set it, ACP004 reads it): a caller that is suppressed, deselected,
cannot be fixed or is outside the run (in the project, but not among the paths given)
keeps the schema as it is, reported once per field with the callers' places. The run
decides this before it edits any file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acp_migrate.rules.base import NO_FIELD_SITE, Example, Report, Rule
from acp_migrate.rules.shared import ADVERTISER_CLASS, LEGACY_KEYS, LEGACY_TOKENS

if TYPE_CHECKING:
    import libcst as cst


def _field_target(statement: cst.BaseStatement) -> cst.Name | None:
    import libcst as cst

    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        small = statement.body[0]
        if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
            return small.target
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            target = small.targets[0].target
            return target if isinstance(target, cst.Name) else None
    return None


def _string_statement(statement: cst.BaseStatement) -> cst.SimpleString | None:
    import libcst as cst

    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        small = statement.body[0]
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString):
            return small.value
    return None


# Methods of an owned schema whose parameters build it: a `create` classmethod, and
# `__init__` (hand-written, or declared in a `.pyi` stub).
FACTORY_METHODS = frozenset({"create", "__init__"})


class OwnedSchemaField(Rule):
    code = "ACP003"
    name = "schema-slash-commands-field"
    summary = "A schema this project owns declares or forwards the legacy `slash_commands` field."
    fixable = True
    triggers = LEGACY_TOKENS
    screen_words = LEGACY_KEYS
    # it reads a schema's definitions and factory keywords only
    screen_harmless = NO_FIELD_SITE
    names_looked_up = frozenset({ADVERTISER_CLASS})  # the rewire asks whether it is imported
    examples = (
        Example(
            before=(
                "from acp.schema import AvailableCommand\n"
                "from pydantic import BaseModel, Field\n"
                "\n"
                "class AgentCapabilities(BaseModel):\n"
                "    load_session: bool = False\n"
                "    slash_commands: list[AvailableCommand] = Field(default_factory=list)\n"
                '    """Commands advertised at initialize."""\n'
                "\n"
                "    @classmethod\n"
                "    def create(cls, *, load_session=False, slash_commands=None):\n"
                '        """Build capabilities.\n'
                "\n"
                "        Args:\n"
                "            load_session: Whether sessions can be loaded.\n"
                "            slash_commands: Commands to advertise.\n"
                '        """\n'
                "        return cls(load_session=load_session, slash_commands=slash_commands or [])\n"
            ),
            after=(
                "from pydantic import BaseModel\n"
                "\n"
                "class AgentCapabilities(BaseModel):\n"
                "    load_session: bool = False\n"
                "\n"
                "    @classmethod\n"
                "    def create(cls, *, load_session=False):\n"
                '        """Build capabilities.\n'
                "\n"
                "        Args:\n"
                "            load_session: Whether sessions can be loaded.\n"
                '        """\n'
                "        return cls(load_session=load_session)\n"
            ),
        ),
        Example(
            before=(
                "class ServerConfig:\n"
                "    slash_commands: list[str] = []\n"
            ),
            flagged=False,
        ),
    )

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        import libcst as cst

        if self.context.schema_class(node) is None or not isinstance(node.body, cst.IndentedBlock):
            return
        body = node.body.body
        fields = [
            (index, target)
            for index, statement in enumerate(body)
            if (target := _field_target(statement)) is not None and target.value in LEGACY_KEYS
        ]
        kept_by = self.context.schema_kept_by() if fields else ()
        if kept_by:
            for _, target in fields:
                self.context.report(
                    Report(
                        target,
                        self.code,
                        f"field `{target.value}` of {node.name.value} stays: still passed or read by "
                        f"{_callers(kept_by)}; migrate those callers, then run fix again",
                        fixable=False,
                    )
                )
            return
        for number, (index, target) in enumerate(fields):
            message = (
                f"field `{target.value}` of {node.name.value} is not part of ACP; commands are advertised per session"
            )
            with self.context.fix(Report(target, self.code, message, fixable=True)):
                if number == 0:  # the docstring entries go with the first field's fix
                    self._remove_doc_entries(node.body, {target.value for _, target in fields})
                self.context.remove(body[index])
                if index + 1 < len(body) and _string_statement(body[index + 1]) is not None:
                    self.context.remove(body[index + 1])  # the field's attribute docstring

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        from acp_migrate.cst.names import mentions
        from acp_migrate.rules.context import all_params

        owned = self.context.schema_method()
        if owned is None or node.name.value not in FACTORY_METHODS:
            return
        method = f"{owned[0]}.{node.name.value}"
        forwarded = mentions(_ForwardingValues.of(node))
        used = self.context.mentions_in(node)
        legacy = [p for p in all_params(node.params) if p.name.value in LEGACY_KEYS]
        if legacy and self.context.schema_kept_by():
            return  # the parameter stays with the field (reported there)
        # `used` counts the parameter itself once.
        removable = [p for p in legacy if used[p.name.value] - 1 <= forwarded.get(p.name.value, 0)]
        for param in legacy:
            name = param.name.value
            if param not in removable:
                self.context.report(
                    Report(
                        param,
                        self.code,
                        f"parameter `{name}` of {method} is used for more than forwarding "
                        "the legacy field; remove those uses, then the parameter",
                        fixable=False,
                    )
                )
                continue
            message = f"parameter `{name}` of {method} feeds the legacy field"
            with self.context.fix(Report(param, self.code, message, fixable=True)):
                if param is removable[0]:  # the docstring entries go with the first parameter's fix
                    self._remove_doc_entries(node.body, {p.name.value for p in removable})
                self.context.remove(param)

    def visit_Call(self, node: cst.Call) -> None:
        from acp_migrate.rules.shared.advertised import is_legacy_factory, remove_advertised

        owned = self.context.schema_method()
        if owned is None or owned[1].name.value not in FACTORY_METHODS or is_legacy_factory(self.context, node.func):
            return  # ACP001 covers the schema factories themselves
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value in LEGACY_KEYS:
                remove_advertised(self.context, arg, arg.value, self.code, f"`{arg.keyword.value}=` forwards the legacy field")

    def _remove_doc_entries(self, body: cst.BaseSuite, names: set[str]) -> None:
        import libcst as cst

        from acp_migrate.cst.docstrings import remove_entries

        if not names or not isinstance(body, cst.IndentedBlock) or not body.body:
            return
        docstring = _string_statement(body.body[0])
        if docstring is None:
            return
        quote = docstring.quote
        prefix = docstring.prefix
        inner = docstring.value[len(prefix) + len(quote) : -len(quote)]
        new_inner = remove_entries(inner, frozenset(names))
        if new_inner is not None:
            self.context.replace(docstring, docstring.with_changes(value=f"{prefix}{quote}{new_inner}{quote}"))


def _callers(kept_by: tuple[str, ...]) -> str:
    shown = ", ".join(f"`{c}`" for c in kept_by[:3])
    return shown + (f" and {len(kept_by) - 3} more" if len(kept_by) > 3 else "")


class _ForwardingValues:
    """The values of `slash_commands=` keywords inside one function, as one tuple node."""

    def __init__(self) -> None:
        self.values: list[cst.BaseExpression] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        import libcst as cst

        if isinstance(node, cst.Arg) and node.keyword is not None and node.keyword.value in LEGACY_KEYS:
            self.values.append(node.value)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        pass

    @classmethod
    def of(cls, function: cst.FunctionDef) -> cst.CSTNode:
        import libcst as cst

        from acp_migrate.cst.walk import walk

        collector = cls()
        walk(function.body, collector)
        return cst.Tuple([cst.Element(value) for value in collector.values])
