"""ACP008 removed-behaviour-test: a test whose assertions are about the removed field.

RFC-0032: tests of initialize-time commands "must be rewritten or deleted, not merely
updated". In a test file (the `test-files` globs: `tests/**`, `test_*.py`,
`*_test.py`), a pytest or unittest test that asserts the `slash_commands` field
(`assert caps.slash_commands == []`, `data["slashCommands"]`, `hasattr(caps,
"slash_commands")`, a name computed from them) is:

- removed whole when every assertion in it is about the field (an assertion that the
  value read from exists, `assert response.agent_capabilities is not None`, counts
  with them); a test class left without tests goes too;
- edited when it asserts other things too: only its statements about the field go,
  with the locals only they read, and its other assertions stay;
- left as it is, reported, when that cannot be done safely (an assertion mixes the
  field with other checks, a value read from the field is used by what stays, the
  field is used outside an assertion): a person rewrites it, and a schema the project
  owns keeps the field meanwhile, so the test still passes.

Every removal is reported by `fix` with the test's name (`TestClass::test_name`) and
the assertion that made it go, so the reviewer of the diff sees it; `check` reports it
as fixable. Never a half-edited test and never a TODO inside one: other rules neither
report nor edit inside a test that goes, and in the tests that stay a legacy
keyword's value is simply dropped. Assertions of the field's absence (`assert not
hasattr(caps, "slash_commands")`, `"slashCommands" not in data`,
`getattr(caps, "slash_commands", None) is None`) are correct code: never reported.

Where the project owns the schema (the file imports `AgentCapabilities` or
`InitializeResponse` from a module other than the SDK's `acp` / `acp.schema`), the
first test or class removed whole is replaced by the backward-compatibility test the
RFC makes a blocking condition, `test_old_json_with_slash_commands_still_validates`
(old JSON with `slashCommands` validates, without the field); once per file, and not
when the file already has a test validating old JSON with the key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acp_migrate.rules.base import Example, Report, Rule
from acp_migrate.rules.shared import LEFT, LEGACY_KEYS, LEGACY_TOKENS, PARTIAL, REMOVE

if TYPE_CHECKING:
    import libcst as cst

    from acp_migrate.rules.shared.legacy_tests import TestFile


class RemovedBehaviourTest(Rule):
    code = "ACP008"
    name = "removed-behaviour-test"
    summary = "A test whose assertions are about the removed `slash_commands` field is removed, not half-edited."
    fixable = True
    triggers = LEGACY_TOKENS
    screen_words = LEGACY_KEYS
    examples = (
        Example(
            path="tests/test_capabilities.py",
            before=(
                "from acp.schema import AgentCapabilities\n"
                "\n"
                "\n"
                "def test_default_is_empty():\n"
                "    caps = AgentCapabilities()\n"
                "    assert caps.slash_commands == []\n"
                "\n"
                "\n"
                "def test_load_session():\n"
                "    caps = AgentCapabilities(load_session=True, slash_commands=[])\n"
                "    assert caps.load_session is True\n"
                "    assert caps.slash_commands == []\n"
            ),
            after=(
                "from acp.schema import AgentCapabilities\n"
                "\n"
                "\n"
                "def test_load_session():\n"
                "    caps = AgentCapabilities(load_session=True)\n"
                "    assert caps.load_session is True\n"
            ),
        ),
        Example(
            path="tests/test_schema.py",
            before=(
                "from myagent.schema import AgentCapabilities\n"
                "\n"
                "\n"
                "class TestSlashCommands:\n"
                "    def test_accepts_commands(self):\n"
                '        caps = AgentCapabilities.model_validate({"slashCommands": [{"name": "web", "description": "Web"}]})\n'
                '        assert caps.slash_commands[0].name == "web"\n'
            ),
            after=(
                "from myagent.schema import AgentCapabilities\n"
                "\n"
                "\n"
                "def test_old_json_with_slash_commands_still_validates():\n"
                '    """Old JSON with `slashCommands` still validates, without the field (RFC-0032)."""\n'
                "    caps = AgentCapabilities.model_validate(\n"
                '        {"slashCommands": [{"name": "plan", "description": "Create a plan"}]}\n'
                "    )\n"
                '    assert not hasattr(caps, "slash_commands")\n'
            ),
        ),
        Example(
            path="tests/test_initialize.py",
            before=(
                "async def test_initialize_has_no_slash_commands(agent):\n"
                "    response = await agent.initialize(protocol_version=1)\n"
                '    assert not hasattr(response.agent_capabilities, "slash_commands")\n'
            ),
            flagged=False,
        ),
    )

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        tests = self.context.tests()
        if tests is None or node not in tests.classes:
            return
        plan = tests.classes[node]
        if not plan.removable or not all(t.fate == REMOVE for t in plan.tests):
            return
        count = f"{len(plan.tests)} test{'s' if len(plan.tests) != 1 else ''}"
        removal = self._removal(
            node.name,
            f"test class `{node.name.value}` holds only tests of the removed `slash_commands` field: "
            f"fix removes it with its {count}",
            f"removed test class `{node.name.value}`: its {count} asserted only the removed "
            f"`slash_commands` field{self._compat_note(tests, node)}",
        )
        with self.context.fix(removal):
            self._remove(tests, node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        tests = self.context.tests()
        if tests is None:
            return
        plan = tests.plans.get(node)
        if plan is None:
            return
        if plan.fate == REMOVE:
            removal = self._removal(
                node.name,
                f"test `{plan.name}` asserts only the removed `slash_commands` field (`{plan.evidence}`): "
                "fix removes it (RFC-0032: such tests are deleted, not updated)",
                f"removed test `{plan.name}`: it asserted only the removed `slash_commands` field "
                f"(`{plan.evidence}`){self._compat_note(tests, node)}",
            )
            with self.context.fix(removal):
                self._remove(tests, node)
        elif plan.fate == PARTIAL:
            count = f"{len(plan.removed)} statement{'s' if len(plan.removed) != 1 else ''}"
            removal = self._removal(
                node.name,
                f"test `{plan.name}` also asserts the removed `slash_commands` field (`{plan.evidence}`): "
                f"fix removes those {count} and keeps its other assertions",
                f"test `{plan.name}`: removed its {count} about the removed `slash_commands` field "
                f"(`{plan.evidence}`); its other assertions stay",
            )
            with self.context.fix(removal):
                for statement in plan.removed:
                    self.context.remove(statement)
        elif plan.fate == LEFT:
            self.context.report(
                Report(
                    node.name,
                    self.code,
                    f"test `{plan.name}` asserts the removed `slash_commands` field and other things, and fix "
                    f"cannot separate them safely: {plan.reason}; fix leaves it as it is: rewrite it by hand",
                    fixable=False,
                    caller=True,
                )
            )

    def _remove(self, tests: TestFile, node: cst.ClassDef | cst.FunctionDef) -> None:
        if node is tests.compat_anchor():
            self.context.replace(node, tests.compat_test(node))
        else:
            self.context.remove(node)

    def _compat_note(self, tests: TestFile, node: cst.CSTNode) -> str:
        if node is not tests.compat_anchor():
            return ""
        return (
            "; in its place, `test_old_json_with_slash_commands_still_validates` checks that old JSON with "
            "`slashCommands` still validates (RFC-0032)"
        )

    def _removal(self, node: cst.CSTNode, message: str, done: str) -> Report:
        # The follow-up is what `fix` prints, so that the diff's reviewer sees the removal;
        # fixable (done, not left to do): it does not make fix exit 1.
        followup = Report(node, self.code, done, fixable=True)
        # A caller: while the test stays (suppressed, deselected), an owned schema keeps the field.
        return Report(node, self.code, message, fixable=True, followups=[followup], caller=True)

