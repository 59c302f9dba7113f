"""ACP001 initialize-slash-commands: `slash_commands=` given to AgentCapabilities or
InitializeResponse.create advertises commands at `initialize`, and so does any other
way of setting the field on capabilities.

ACP lists commands per session (session setup results and `available_commands_update`
notifications), so the setting goes and its list moves to the agent's
`CommandAdvertiser`: first thing in `initialize`, `fix` binds it to the connection and
gives it the list (`advertise(...)`). The advertiser sends each session set up on the
connection (new, load, resume, fork) the list after its setup response, whichever
handler answered, and adds the moved commands to the lists the server's own code sends;
the setup handlers are not edited. The ways of setting it:

- the keyword: `AgentCapabilities(slash_commands=x)`, `AgentCapabilities.create(...)`,
  `InitializeResponse.create(...)`, also `**{"slash_commands": x}` and `**dict(...)`;
- `**kwargs` built in the same function by a plain `kwargs = {...}` (or `dict(...)`)
  line and `kwargs["slash_commands"] = x` lines: the entries go;
- `caps.model_copy(update={"slash_commands": x})`: the entry goes (the `update=` too
  when it is left empty);
- `setattr(caps, "slash_commands", x)` and `caps.slash_commands = x` on a value known
  to be capabilities: the statement goes.

A setting `fix` cannot take out safely (a `kwargs` dict built or used any other way,
an assignment sharing its line or doing more than setting the field) is kept with a
TODO, reported as not fixable with an ACP005 follow-up naming why, as are lists that
cannot be moved. Classes are recognised through imports and aliases (`from acp.schema
import AgentCapabilities as Caps`, `import acp.schema as s`) or by being defined in the
module; other classes' `slash_commands` are left alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acp_migrate.rules.base import NO_FIELD_SITE, Example, Rule
from acp_migrate.rules.shared import ADVERTISER_CLASS, ADVERTISES, CAPS, LEGACY_KEYS, LEGACY_TOKENS

if TYPE_CHECKING:
    import libcst as cst

    from acp_migrate.rules.context import FileContext


class _Mentions:
    """Every mention of one name below a node, with the nodes around it (innermost first)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.found: list[list[cst.CSTNode]] = []
        self._stack: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        import libcst as cst

        parent = self._stack[-1] if self._stack else None
        if isinstance(node, cst.Name) and node.value == self.name:
            attribute = isinstance(parent, cst.Attribute) and parent.attr is node
            keyword = isinstance(parent, cst.Arg) and parent.keyword is node
            if not attribute and not keyword and not isinstance(parent, (cst.Param, cst.FunctionDef, cst.ClassDef)):
                self.found.append([node, *reversed(self._stack)])
        self._stack.append(node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self._stack.pop()


class InitializeKeyword(Rule):
    code = "ACP001"
    name = "initialize-slash-commands"
    summary = (
        "`slash_commands=` in AgentCapabilities / InitializeResponse.create (or the field set on capabilities "
        "otherwise) advertises commands at initialize."
    )
    fixable = True
    triggers = LEGACY_TOKENS
    screen_words = LEGACY_KEYS
    # it sets the field: none of these sets it
    screen_harmless = NO_FIELD_SITE
    names_looked_up = frozenset({ADVERTISER_CLASS})  # the rewire asks whether it is imported
    examples = (
        Example(
            before=(
                "from acp.schema import AgentCapabilities as Caps\n"
                "\n"
                "caps = Caps(load_session=True, slash_commands=[])\n"
            ),
            after=(
                "from acp.schema import AgentCapabilities as Caps\n"
                "\n"
                "caps = Caps(load_session=True)\n"
            ),
        ),
        Example(
            before=(
                "import acp.schema as s\n"
                "\n"
                "def build():\n"
                "    return s.InitializeResponse.create(\n"
                "        protocol_version=1,\n"
                "        slash_commands=None,  # advertised at init\n"
                "    )\n"
            ),
            after=(
                "import acp.schema as s\n"
                "\n"
                "def build():\n"
                "    return s.InitializeResponse.create(\n"
                "        protocol_version=1,\n"
                "    )\n"
            ),
        ),
        Example(
            before=(
                "from acp.schema import AgentCapabilities\n"
                "\n"
                "def capabilities():\n"
                "    caps = AgentCapabilities(load_session=True)\n"
                "    caps.slash_commands = []\n"
                '    return caps.model_copy(update={"load_session": False, "slash_commands": []})\n'
            ),
            after=(
                "from acp.schema import AgentCapabilities\n"
                "\n"
                "def capabilities():\n"
                "    caps = AgentCapabilities(load_session=True)\n"
                '    return caps.model_copy(update={"load_session": False})\n'
            ),
        ),
        Example(before="server = ServerConfig(slash_commands=['plan'])\n", flagged=False),
    )

    def __init__(self, context: FileContext) -> None:
        from acp_migrate.rules.shared.kinds import LocalKinds

        super().__init__(context)
        self.kinds = LocalKinds(context)

    # -- local names -------------------------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.kinds.entered(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.kinds.left(original_node)

    # -- `caps.slash_commands = x` -----------------------------------------------------------
    def visit_Assign(self, node: cst.Assign) -> None:
        self._stores(node, node.value)
        self.kinds.assigned(node)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._stores(node, node.value)
        self.kinds.assigned(node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._stores(node, node.value)

    def _stores(self, node: cst.Assign | cst.AnnAssign | cst.AugAssign, value: cst.BaseExpression) -> None:
        import libcst as cst

        from acp_migrate.rules.shared.advertised import (
            assigned_value,
            keep_advertised,
            remove_advertised,
            sole_statement,
        )
        from acp_migrate.rules.shared.syntax import assignment_targets

        legacy = [
            target
            for target in assignment_targets(node)
            if isinstance(target, cst.Attribute)
            and target.attr.value in LEGACY_KEYS
            and self.kinds.kind(target.value) == CAPS
        ]
        if not legacy:
            return
        target = legacy[0]
        message = f"`.{target.attr.value} = ...` {ADVERTISES}"
        if isinstance(node, cst.Assign):
            plain = len(node.targets) == 1 and node.targets[0].target is target
        else:
            plain = node.target is target
        statement = sole_statement(self.context, node)
        if plain and statement is not None:
            remove_advertised(self.context, statement, value, self.code, message, caller=True)
            return
        reason = "the statement does more than set the field" if not plain else "it shares its line with another statement"
        source = self.context.code(assigned_value(node, target, value))
        keep_advertised(self.context, target, source, self.code, message, reason, caller=True)

    # -- calls ---------------------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        import libcst as cst

        from acp_migrate.rules.shared.advertised import is_legacy_factory, remove_advertised

        func = node.func
        if is_legacy_factory(self.context, func):
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value in LEGACY_KEYS:
                    remove_advertised(
                        self.context, arg, arg.value, self.code, f"`{arg.keyword.value}=` {ADVERTISES}", caller=True
                    )
                elif arg.star == "**":
                    self._entries(arg, arg.value, "**")
        elif self._is_setattr(node):
            self._setattr(node)
        elif (
            isinstance(func, cst.Attribute)
            and func.attr.value in {"model_copy", "copy"}
            and self.kinds.kind(func.value) == CAPS
        ):
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value == "update":
                    self._entries(arg, arg.value, "update=")

    def _is_setattr(self, node: cst.Call) -> bool:
        """`setattr(caps, "slash_commands", x)` or `object.__setattr__(caps, ...)`."""
        import libcst as cst

        from acp_migrate.rules.shared.syntax import string_value

        func = node.func
        named = (isinstance(func, cst.Name) and func.value == "setattr") or (
            isinstance(func, cst.Attribute)
            and func.attr.value == "__setattr__"
            and isinstance(func.value, cst.Name)
            and func.value.value == "object"
        )
        return (
            named
            and len(node.args) == 3
            and all(arg.keyword is None and not arg.star for arg in node.args)
            and string_value(node.args[1].value) in LEGACY_KEYS
            and self.kinds.kind(node.args[0].value) == CAPS
        )

    def _setattr(self, node: cst.Call) -> None:
        import libcst as cst

        from acp_migrate.rules.shared.advertised import keep_advertised, remove_advertised, sole_statement
        from acp_migrate.rules.shared.syntax import string_value

        key = string_value(node.args[1].value)
        value = node.args[2].value
        message = f'`setattr(..., "{key}", ...)` {ADVERTISES}'
        statement = self.context.statements[-1] if self.context.statements else None
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) else None
        if isinstance(small, cst.Expr) and small.value is node and sole_statement(self.context, small) is not None:
            remove_advertised(self.context, statement, value, self.code, message, caller=True)
            return
        reason = "the call is part of a larger statement"
        keep_advertised(self.context, node, self.context.code(value), self.code, message, reason, caller=True)

    # -- dicts of keyword arguments ---------------------------------------------------------
    def _entries(self, carrier: cst.Arg, expression: cst.BaseExpression, form: str) -> None:
        """The legacy entries of the dict `carrier` (a `**` or `update=` argument) passes:
        a literal, `dict(...)`, or a local built plainly in the function."""
        import libcst as cst

        from acp_migrate.rules.shared.advertised import remove_advertised
        from acp_migrate.rules.shared.syntax import is_dict_call, string_key

        context = self.context
        if isinstance(expression, cst.Dict):
            elements = list(expression.elements)
            for element in elements:
                key = string_key(element)
                if key in LEGACY_KEYS:
                    anchor = carrier if len(elements) == 1 else element
                    message = f'"{key}" in `{form}{{...}}` {ADVERTISES}'
                    remove_advertised(context, anchor, element.value, self.code, message, caller=True)
        elif is_dict_call(expression):
            args = list(expression.args)
            for arg in args:
                if arg.keyword is not None and arg.keyword.value in LEGACY_KEYS:
                    anchor = carrier if len(args) == 1 else arg
                    message = f"`{arg.keyword.value}=` in `{form}dict(...)` {ADVERTISES}"
                    remove_advertised(context, anchor, arg.value, self.code, message, caller=True)
        elif isinstance(expression, cst.Name):
            self._local_dict(carrier, expression, form)

    def _local_dict(self, carrier: cst.Arg, name: cst.Name, form: str) -> None:
        """`kwargs = {...}` / `kwargs["slash_commands"] = x` in this function (or at
        module level, for a call there), then `AgentCapabilities(**kwargs)`: the legacy
        entries go. A dict built another way (a parameter, assigned twice, elsewhere) or
        changed another way that mentions the field (`kwargs.update(slash_commands=x)`)
        is not followed: it is reported and kept."""
        import libcst as cst

        from acp_migrate.cst.walk import walk
        from acp_migrate.rules.context import all_params
        from acp_migrate.rules.shared.advertised import keep_advertised, remove_advertised

        context = self.context
        function = context.function
        local = name.value
        params = {p.name.value for p in all_params(function.params)} if function is not None else set()
        mentions = _Mentions(local)
        walk(function.body if function is not None else context.module, mentions)
        assignments = 0
        opaque = False  # assigned something else than a dict literal or `dict(...)`
        entries: list[tuple[cst.CSTNode, str, cst.BaseExpression]] = []  # (anchor, key, value)
        evidence = False  # a mention the codemod does not follow mentions the field
        for found in mentions.found:
            kind, found_entries = self._mention(found, carrier)
            assignments += kind in {"assignment", "opaque"}
            opaque = opaque or kind == "opaque"
            entries += found_entries
            if kind in {"other", "opaque"}:
                evidence = evidence or any(
                    isinstance(around, cst.BaseSmallStatement) and _mentions_field(context, around) for around in found
                )
        why = None
        if opaque and assignments == 1:
            why = f"`{local}` is built from a value the codemod cannot read"
            evidence = evidence or bool(entries)
        elif local in params or assignments == 0:
            where = "this function" if function is not None else "this module"
            why = f"`{local}` is not built in {where}"
            outside = function is not None and local not in params and self._module_dict_holds_field(local)
            evidence = evidence or bool(entries) or outside
        elif assignments > 1:
            why = f"`{local}` is assigned more than once"
            evidence = evidence or bool(entries)
        elif evidence:
            why = f"`{local}` is changed in a way the codemod cannot follow"
        if why is None:
            for anchor, key, value in entries:
                message = f'"{key}" in `{form}{local}` {ADVERTISES}'
                remove_advertised(context, anchor, value, self.code, message, caller=True)
        elif evidence:
            source = context.code(entries[0][2]) if entries else f"{form}{local}"
            message = f"`{form}{local}` may set `slash_commands`, which {ADVERTISES}"
            keep_advertised(context, carrier, source, self.code, message, why, caller=True)

    def _mention(
        self, found: list[cst.CSTNode], carrier: cst.Arg
    ) -> tuple[str, list[tuple[cst.CSTNode, str, cst.BaseExpression]]]:
        """What one mention of the dict's name is: the `**name` itself ("carrier"), its
        plain assignment ("assignment", with the legacy entries of its dict; "opaque" when
        the value is not a dict literal or `dict(...)`), a plain `name["key"] = value` line
        ("entry"), or anything else ("other")."""
        import libcst as cst

        from acp_migrate.rules.shared.syntax import subscript_key

        node, parents = found[0], found[1:]
        if carrier.value is node:
            return "carrier", []
        # name = {...}  /  name: dict = {...}
        if len(parents) >= 3 and isinstance(parents[0], cst.AssignTarget) and isinstance(parents[1], cst.Assign):
            assign, line = parents[1], parents[2]
            if len(assign.targets) == 1 and _alone(line, assign):
                return self._literal_entries(assign.value)
            return "other", []
        if len(parents) >= 2 and isinstance(parents[0], cst.AnnAssign) and parents[0].target is node:
            if parents[0].value is not None and _alone(parents[1], parents[0]):
                return self._literal_entries(parents[0].value)
            return "other", []
        # name["key"] = value
        if (
            len(parents) >= 4
            and isinstance(parents[0], cst.Subscript)
            and parents[0].value is node
            and isinstance(parents[1], cst.AssignTarget)
            and isinstance(parents[2], cst.Assign)
            and len(parents[2].targets) == 1
            and _alone(parents[3], parents[2])
        ):
            key = subscript_key(parents[0])
            if key is None:
                return "other", []
            if key in LEGACY_KEYS:
                return "entry", [(parents[3], key, parents[2].value)]
            return "entry", []
        return "other", []

    def _literal_entries(
        self, value: cst.BaseExpression
    ) -> tuple[str, list[tuple[cst.CSTNode, str, cst.BaseExpression]]]:
        """The legacy entries of the value a dict's name is assigned: a literal or `dict(...)`
        ("assignment"); another value is "opaque"."""
        import libcst as cst

        from acp_migrate.rules.shared.syntax import is_dict_call, string_key

        if isinstance(value, cst.Dict):
            return "assignment", [(e, k, e.value) for e in value.elements if (k := string_key(e)) in LEGACY_KEYS]
        if is_dict_call(value):
            assert isinstance(value, cst.Call)
            return "assignment", [
                (arg, arg.keyword.value, arg.value)
                for arg in value.args
                if arg.keyword is not None and arg.keyword.value in LEGACY_KEYS
            ]
        return "opaque", []

    def _module_dict_holds_field(self, name: str) -> bool:
        """Whether a module-level assignment of `name` mentions the field."""
        import libcst as cst

        from acp_migrate.rules.shared.syntax import assignment_targets

        for statement in self.context.module.body:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, (cst.Assign, cst.AnnAssign)) and any(
                        isinstance(t, cst.Name) and t.value == name for t in assignment_targets(small)
                    ):
                        if _mentions_field(self.context, small):
                            return True
        return False


def _alone(line: cst.CSTNode, small: cst.CSTNode) -> bool:
    import libcst as cst

    return isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and line.body[0] is small


def _mentions_field(context: FileContext, node: cst.CSTNode) -> bool:
    code = context.module.code_for_node(node)
    return any(key in code for key in LEGACY_KEYS)
