"""ACP004 slash-commands-read: code that reads the removed field.

`caps.slash_commands`, `resp.agent_capabilities.slash_commands`,
`data["agentCapabilities"]["slashCommands"]`, `getattr(caps, "slash_commands"[, default])`,
`caps.model_dump().get("slashCommands")`, and assertions that the field is there
(`assert hasattr(caps, "slash_commands")`, `assert "slashCommands" in data`): after
the migration these read nothing, so a person must rewrite them (usually a test that
should now look at the per-session advertisement). Only values known to be
capabilities count: a server's own `self.slash_commands` is not this
field. Setting the field (`caps.slash_commands = x`, `setattr(...)`) is ACP001's and
ACP002's, not a read.

Assertions of the field's absence are already right and are not reported: a comparison
or `not` whose truth is "the field is absent" (`not hasattr(caps, "slash_commands")`,
`getattr(caps, "slash_commands", None) is None`, `data.get("slashCommands") is None`,
`not data.get("slashCommands")`, `"slashCommands" not in data`).

Resolving it: decide what the read was for. A test of initialize-time commands is
rewritten (RFC-0032: "rewritten or deleted, not merely updated"): assert the field's
absence where the capabilities are still checked, and test the commands where a session
gets them now: `agent.command_advertiser.commands()` (what every session is advertised),
or the `available_commands_update` after a setup response over a real connection or a
recording client (`bind` of a `unittest.mock.Mock` stands aside). Code that
read the list to use it reads it from where the server keeps its commands. Then
`acp-migrate check` no longer reports the line (example 1 shows both steps).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acp_migrate.rules.base import NO_FIELD_SITE, Example, Report, Rule
from acp_migrate.rules.shared import CAPS, CAPS_DICT, LEGACY_KEYS, LEGACY_TOKENS

if TYPE_CHECKING:
    import libcst as cst

# Defaults a `getattr(..., default)` or `.get(..., default)` may give that are false.
FALSY_LITERALS = frozenset({"None", "False", "0", "''", '""', "[]", "()", "{}", "list()", "tuple()", "dict()"})


def _code(node: cst.CSTNode) -> str:
    import libcst as cst

    return " ".join(cst.Module([]).code_for_node(node).split())


class RemovedFieldRead(Rule):
    code = "ACP004"
    name = "slash-commands-read"
    summary = "Code reads `slash_commands` from capabilities, where it no longer exists."
    fixable = False
    triggers = LEGACY_TOKENS
    screen_words = LEGACY_KEYS
    # assertions of absence, and dicts given to a parsing method, read nothing; a definition's
    # name and a method's own attribute are no capabilities' field
    screen_harmless = NO_FIELD_SITE
    examples = (
        Example(
            before=(
                "async def test_init(agent):\n"
                "    response = await agent.initialize(protocol_version=1)\n"
                "    assert response.agent_capabilities.slash_commands\n"
            ),
            resolved=(
                "async def test_init(agent):\n"
                "    response = await agent.initialize(protocol_version=1)\n"
                '    assert not hasattr(response.agent_capabilities, "slash_commands")\n'
                "\n"
                "\n"
                "async def test_sessions_advertise_the_commands(agent, client):\n"
                "    # `client`: the connection's peer, recording what reaches it in order.\n"
                "    await agent.initialize(protocol_version=1)\n"
                '    session = await agent.new_session(cwd="/tmp", mcp_servers=[])\n'
                "    update = client.updates_for(session.session_id)[-1]  # after the setup response\n"
                '    assert update.session_update == "available_commands_update"\n'
                '    assert [command.name for command in update.available_commands] == ["web", "test"]\n'
            ),
        ),
        Example(
            before=(
                "async def test_init(agent):\n"
                "    response = await agent.initialize(protocol_version=1)\n"
                "    caps = response.agent_capabilities\n"
                '    assert getattr(caps, "slash_commands", None) is None\n'
                '    assert "slashCommands" not in caps.model_dump(by_alias=True)\n'
                '    assert not hasattr(caps, "slash_commands")\n'
            ),
            flagged=False,
        ),
    )

    def __init__(self, context) -> None:
        from acp_migrate.rules.shared.kinds import LocalKinds

        super().__init__(context)
        self.kinds = LocalKinds(context)
        # Reads that are part of an assertion of the field's absence.
        self._absent: set[cst.CSTNode] = set()
        # Attributes and subscripts assigned to (setting the field: another rule's).
        self._stored: set[cst.CSTNode] = set()

    # -- local names -------------------------------------------------------------------
    def visit_Assign(self, node: cst.Assign) -> None:
        from acp_migrate.rules.shared.syntax import assignment_targets

        self.kinds.assigned(node)
        self._stored.update(assignment_targets(node))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        from acp_migrate.rules.shared.syntax import assignment_targets

        self.kinds.assigned(node)
        self._stored.update(assignment_targets(node))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        from acp_migrate.rules.shared.syntax import assignment_targets

        self._stored.update(assignment_targets(node))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.kinds.entered(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.kinds.left(original_node)

    # -- assertions of absence ------------------------------------------------------------
    def visit_Comparison(self, node: cst.Comparison) -> None:
        import libcst as cst

        if len(node.comparisons) != 1:
            return
        operator, right = node.comparisons[0].operator, node.comparisons[0].comparator
        if isinstance(operator, (cst.Is, cst.Equal)):
            default = self._defaulted_read(node.left)
            if default is not None and _code(right) == default:
                self._absent.add(node.left)

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        import libcst as cst

        if isinstance(node.operator, cst.Not):
            default = self._defaulted_read(node.expression)
            if default in FALSY_LITERALS:
                self._absent.add(node.expression)

    def _defaulted_read(self, node: cst.BaseExpression) -> str | None:
        """The default (as code) of `getattr(x, "slash_commands", default)` or
        `x.get("slashCommands"[, default])` reading the field, else None."""
        import libcst as cst

        if not isinstance(node, cst.Call):
            return None
        func, args = node.func, node.args
        if isinstance(func, cst.Name) and func.value == "getattr" and len(args) == 3:
            if self._reads_attribute(args[0].value, args[1].value):
                return _code(args[2].value)
        if isinstance(func, cst.Attribute) and func.attr.value == "get" and len(args) in (1, 2):
            if self._reads_key(func.value, args[0].value):
                return _code(args[1].value) if len(args) == 2 else "None"
        return None

    def _reads_attribute(self, value: cst.BaseExpression, name: cst.BaseExpression) -> bool:
        from acp_migrate.rules.shared.syntax import string_value

        return string_value(name) in LEGACY_KEYS and self.kinds.kind(value) == CAPS

    def _reads_key(self, container: cst.BaseExpression, key: cst.BaseExpression) -> bool:
        from acp_migrate.rules.shared.syntax import string_value

        return string_value(key) in LEGACY_KEYS and self.kinds.kind(container) == CAPS_DICT

    # -- assertions of presence -------------------------------------------------------------
    def visit_Assert(self, node: cst.Assert) -> None:
        """`assert hasattr(caps, "slash_commands")`, `assert "slashCommands" in data`
        (alone or in an `and` chain): after the migration they fail. Outside an
        assertion such checks are compatibility code, right either way."""
        import libcst as cst

        from acp_migrate.rules.shared.syntax import string_value

        tests = [node.test]
        while tests:
            test = tests.pop()
            if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
                tests += [test.left, test.right]
            elif isinstance(test, cst.Call) and isinstance(test.func, cst.Name) and test.func.value == "hasattr":
                if len(test.args) == 2 and self._reads_attribute(test.args[0].value, test.args[1].value):
                    self._report(test, f'`hasattr(..., "{string_value(test.args[1].value)}")`')
            elif isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
                if isinstance(test.comparisons[0].operator, cst.In):
                    if self._reads_key(test.comparisons[0].comparator, test.left):
                        self._report(test, f'`"{string_value(test.left)}" in ...`')

    # -- the reads -------------------------------------------------------------------
    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node in self._stored:
            return
        if node.attr.value in LEGACY_KEYS and self.kinds.kind(node.value) == CAPS:
            self._report(node, f"`.{node.attr.value}`")

    def visit_Subscript(self, node: cst.Subscript) -> None:
        from acp_migrate.rules.shared.syntax import subscript_key

        if node in self._stored:
            return
        key = subscript_key(node)
        if key in LEGACY_KEYS and self.kinds.kind(node.value) == CAPS_DICT:
            self._report(node, f'`["{key}"]`')

    def visit_Call(self, node: cst.Call) -> None:
        import libcst as cst

        from acp_migrate.rules.shared.syntax import string_value

        if node in self._absent:
            return
        func = node.func
        if isinstance(func, cst.Name) and func.value == "getattr" and len(node.args) >= 2:
            if self._reads_attribute(node.args[0].value, node.args[1].value):
                self._report(node, f'`getattr(..., "{string_value(node.args[1].value)}")`')
        elif isinstance(func, cst.Attribute) and func.attr.value == "get" and node.args:
            if self._reads_key(func.value, node.args[0].value):
                self._report(node, f'`.get("{string_value(node.args[0].value)}")`')

    def _report(self, node: cst.CSTNode, what: str) -> None:
        self.context.report(
            Report(
                node,
                self.code,
                f"{what} reads the removed capabilities field; commands are now advertised "
                "per session (setup results and `available_commands_update`)",
                fixable=False,
                caller=True,  # a reader fix leaves keeps an owned schema's field
            )
        )
