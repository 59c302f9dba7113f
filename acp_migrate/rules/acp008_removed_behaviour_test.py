"""ACP008 removed-behaviour-test: a test whose assertions are about the removed field.

RFC-0032 §4: tests of initialize-time commands "must be rewritten or deleted, not
merely updated", replaced with tests that the commands arrive per session. In a test
file (the `test-files` globs: `tests/**`, `test_*.py`, `*_test.py`), a pytest or
unittest test that asserts the `slash_commands` field (`assert caps.slash_commands ==
[]`, `data["slashCommands"]`, `hasattr(caps, "slash_commands")`, a name computed from
them) is:

- rewritten when every read of the field is of what an agent's `initialize` returned
  (`response = await agent.initialize(request)`; the agent built as the file builds
  it, a `Mock()` client included): the arrangement and the call stay, each read
  becomes `agent.command_advertiser.commands()`, what every session of the agent is
  advertised, the assertions stay, and the name and docstrings stop speaking of
  initialize (`test_initialize_exposes_skill_commands` ->
  `test_sessions_advertise_skill_commands`);
- removed whole when every assertion in it is about the field itself (a schema's
  default, its serialization; an assertion that the value read from exists, `assert
  response.agent_capabilities is not None`, counts with them); a test class left
  without tests goes too, and so do the fixtures and helpers only removed tests used,
  and a module left with no test (the file is deleted);
- edited when it asserts other things too: only its statements about the field go,
  with the locals only they read, and its other assertions stay;
- left as it is, reported, when that cannot be done safely (an assertion mixes the
  field with other checks, a value read from the field is used by what stays, the
  field is used outside an assertion, the test is parametrized over the field): a
  person rewrites it, and a schema the project owns keeps the field meanwhile, so the
  test still passes.

A test spying on the method that gives `initialize` the list (`mock.patch.object(Agent,
"get_commands", ...)`, `mocker.spy(...)`) and asserting its calls is reported, not
fixable: the advertiser calls it at each session setup instead.

A unittest test reads the values its class's `setUp` (`setUpClass`, `asyncSetUp`,
`setup_method`) stored on `self`. A fixture or helper that reads the field itself
(ACP004 reports the read) is left with what it sets up: the schema keeps the field
for it, so the tests using it, in this file or from a `conftest.py`, still pass.

Every rewrite and removal is reported by `fix` with the test's name (`TestClass::test_name`)
and the assertion that made it change, so the reviewer of the diff sees it; `check`
reports it as fixable. Never a half-edited test and never a TODO inside one: other
rules neither report nor edit inside a test that goes, and in the tests that stay a
legacy keyword's value is simply dropped. Assertions of the field's absence (`assert
not hasattr(caps, "slash_commands")`, `"slashCommands" not in data`,
`getattr(caps, "slash_commands", None) is None`) are correct code: never reported.

Where the project owns the schema (the file imports `AgentCapabilities` or
`InitializeResponse` from a module other than the SDK's `acp` / `acp.schema`) and the
run removes its field, the first test or class removed whole is replaced by the
backward-compatibility test the RFC makes a blocking condition,
`test_old_json_with_slash_commands_still_validates` (old JSON with `slashCommands`
validates, without the field); once per file, not when the file already has a test
validating old JSON with the key, and not when the schema keeps its field this run
(a caller is left: the test would assert what is not so).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from acp_migrate.rules.base import NO_FIELD_SITE, Example, Report, Rule
from acp_migrate.rules.shared import (
    ADVERTISER,
    LEFT,
    LEGACY_KEYS,
    LEGACY_TOKENS,
    PARTIAL,
    REMOVE,
    REWRITE,
    SPY_ASSERTIONS,
    SPY_TOKENS,
)

if TYPE_CHECKING:
    import libcst as cst

    from acp_migrate.rules.context import FileContext
    from acp_migrate.rules.shared.legacy_tests import TestFile, TestPlan


class RemovedBehaviourTest(Rule):
    code = "ACP008"
    name = "removed-behaviour-test"
    summary = "A test of the removed `slash_commands` field is rewritten to test the per-session advertisement, or removed."
    fixable = True
    tests_behaviour = (ADVERTISER.encode(),)  # migrated code advertises through its attribute
    claims = True  # the tests it removes or rewrites (FileContext.claim)
    triggers = LEGACY_TOKENS + SPY_TOKENS  # a spy on the command getter names no field
    screen_words = LEGACY_KEYS | SPY_ASSERTIONS
    # assertions of absence and old-JSON fixtures are no test of the removed field, a test
    # method's own attribute no spy's (`self.call_count`)
    screen_harmless = NO_FIELD_SITE
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
            path="tests/test_agent.py",
            before=(
                "from unittest.mock import Mock\n"
                "\n"
                "from myagent import SkillAgent\n"
                "\n"
                "\n"
                "async def test_initialize_exposes_skill_commands():\n"
                '    """The initialize response includes the skills."""\n'
                "    agent = SkillAgent(client=Mock())\n"
                "    response = await agent.initialize(protocol_version=1)\n"
                '    assert [c.name for c in response.agent_capabilities.slash_commands] == ["web"]\n'
            ),
            after=(
                "from unittest.mock import Mock\n"
                "\n"
                "from myagent import SkillAgent\n"
                "\n"
                "\n"
                "async def test_sessions_advertise_skill_commands():\n"
                '    """Every session is advertised the skills."""\n'
                "    agent = SkillAgent(client=Mock())\n"
                "    await agent.initialize(protocol_version=1)\n"
                '    assert [c.name for c in agent.command_advertiser.commands()] == ["web"]\n'
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
                '    commands = [{"name": "plan", "description": "Create a plan"}]\n'
                '    caps = AgentCapabilities.model_validate({"slashCommands": commands})\n'
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

    def __init__(self, context: FileContext) -> None:
        super().__init__(context)
        # Inside what fix removes, other rules' findings are moot: dropped with their edits.
        context.claim(self.code, self._removes_at)

    def _tests(self) -> TestFile | None:
        from acp_migrate.rules.shared.legacy_tests import tests_of

        return tests_of(self.context)

    def _removes_at(self, lineage: Sequence[cst.CSTNode]) -> bool:
        tests = self._tests()
        return tests is not None and tests.removes_at(lineage, planned=True)

    def visit_Module(self, node: cst.Module) -> None:
        tests = self._tests()
        if tests is None or not tests.deletes_module():
            return
        count = f"{len(tests.plans)} test{'s' if len(tests.plans) != 1 else ''}"
        removal = self._removal(
            tests.module_anchor(),
            "every test of this module asserts only the removed `slash_commands` field: fix removes the file",
            f"removed this file: its {count} asserted only the removed `slash_commands` field, and nothing "
            "else in it is used (RFC-0032 §4: cover the per-session advertisement in a test of its own)",
        )
        with self.context.fix(removal):
            self.context.delete_file()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        tests = self._tests()
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

    def visit_Call(self, node: cst.Call) -> None:
        """A test spying on the agent's command getter and asserting its calls: the
        advertiser calls it at each session setup, not once at initialize."""
        import libcst as cst

        from acp_migrate.rules.shared.legacy_tests.files import is_test
        from acp_migrate.rules.shared.legacy_tests.spies import spied_getter

        test = self.context.function
        if test is None or self._tests() is None or not is_test(test, self.context.imports):
            return
        index = next(i for i, scope in enumerate(self.context.scopes) if scope is test)
        method = index > 0 and isinstance(self.context.scopes[index - 1], cst.ClassDef)
        getter = spied_getter(self.context, node, test, method)
        if getter is not None:
            message = (
                f"test `{test.name.value}` spies on `{getter}`, which gave initialize its commands, and asserts "
                "its calls: fix moves that call to each session setup; fix leaves it: rewrite it by hand"
            )
            self.context.report(Report(node, self.code, message, fixable=False))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        tests = self._tests()
        if tests is None:
            return
        plan = tests.plans.get(node)
        if plan is None:
            if node in tests.orphaned_fixtures():
                removal = self._removal(
                    node.name,
                    f"`{node.name.value}` (a fixture or helper) is used only by tests fix removes: "
                    "fix removes it with them",
                    f"removed `{node.name.value}` (a fixture or helper): only the removed tests used it",
                )
                with self.context.fix(removal):
                    self.context.remove(node)
            return
        if plan.fate == REWRITE:
            self._rewrite(tests, node, plan)
        elif plan.fate == REMOVE:
            removal = self._removal(
                node.name,
                f"test `{plan.name}` asserts only the removed `slash_commands` field (`{plan.evidence}`): "
                "fix removes it (RFC-0032 §4: a test of the removed field itself is removed, not updated)",
                f"removed test `{plan.name}`: it asserted only the removed `slash_commands` field "
                f"(`{plan.evidence}`){self._compat_note(tests, node)}"
                + (
                    "; it read an initialize result fix could not ask the agent again for: "
                    "cover what every session is advertised in a test of its own (RFC-0032 §4)"
                    if plan.initialize
                    else ""
                ),
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

    def _rewrite(self, tests: TestFile, node: cst.FunctionDef, plan: TestPlan) -> None:
        from acp_migrate.rules.shared.legacy_tests.rewrite import docstring_edit

        rewrite = plan.rewrite
        assert rewrite is not None
        agent = self.context.code(next(iter(rewrite.reads.values())), 80)
        renamed = f" as `{rewrite.name}`" if rewrite.name else ""
        report = self._removal(
            node.name,
            f"test `{plan.name}` asserts the commands an agent advertised at initialize (`{plan.evidence}`): "
            f"fix rewrites it{renamed} to assert what every session is advertised, `{agent}` (RFC-0032 §4)",
            f"rewrote test `{plan.name}`{renamed}: it asserted the initialize-time `slash_commands` "
            f"(`{plan.evidence}`); it now asserts what every session is advertised, `{agent}`",
        )
        with self.context.fix(report):
            for old, new in [*rewrite.reads.items(), *rewrite.messages.items()]:
                self.context.replace(old, new)
            for statement, kept in rewrite.statements.items():
                if kept is None:
                    self.context.remove(statement)
                else:
                    self.context.replace(statement, kept)
            if rewrite.name:
                self.context.replace(node.name, node.name.with_changes(value=rewrite.name))
            owner = tests.owner.get(node)
            bodies = [node.body]
            if self._first_rewritten(tests, node, owner):  # the class's and module's words go with the first
                bodies += [owner.body] if owner is not None else []
                bodies += [tests.module] if self._first_rewritten(tests, node, None) else []
            for body in bodies:
                edit = docstring_edit(body)
                if edit is not None:
                    self.context.replace(*edit)

    @staticmethod
    def _first_rewritten(tests: TestFile, node: cst.FunctionDef, owner: cst.ClassDef | None) -> bool:
        """`node` is the first test fix rewrites in `owner` (None: in the file)."""
        for function, plan in tests.plans.items():
            if (owner is None or tests.owner.get(function) is owner) and tests.rewrites(plan):
                return function is node
        return False

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

