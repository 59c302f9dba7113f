"""ACP008 and the test vocabulary the other rules share (rules/shared/legacy_tests/): which
files are test files, what fix does inside their tests (rewrites, removals), and the
compatibility test."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.command import run_acp_migrate
from support.git import git

from acp_migrate.config import load_options
from acp_migrate.engine.analysis.codemod import analyze_source
from acp_migrate.rules.shared.legacy_tests.files import is_test_path
from acp_migrate.settings import ProjectFacts, RuleSettings

DEFAULT = RuleSettings().test_files


@pytest.mark.parametrize(
    "path,expected",
    [
        ("tests/test_capabilities.py", True),
        ("tests/acp/schema/helpers.py", True),
        ("src/pkg/tests/conftest.py", True),
        ("./tests/fake_agent.py", True),
        ("test_agent.py", True),
        ("pkg/agent_test.py", True),
        ("../other/tests/x.py", True),
        ("agent.py", False),
        ("src/pkg/testing.py", False),
        ("tests.py", False),
        ("contests/agent.py", False),
        (None, False),
    ],
)
def test_test_files_are_matched_on_the_paths_last_parts(path, expected) -> None:
    assert is_test_path(path, DEFAULT) is expected


def test_the_test_files_setting_is_read_from_the_configuration(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.acp-migrate]\ntest-files = ["checks/**"]\n')
    settings = load_options([tmp_path]).settings

    assert settings.test_files == ("checks/**",)
    assert is_test_path("checks/caps.py", settings.test_files)
    assert not is_test_path("tests/test_caps.py", settings.test_files)
    assert load_options([tmp_path], isolated=True).settings.test_files == DEFAULT


FIELD_TEST = (
    "from acp.schema import AgentCapabilities\n"
    "\n"
    "\n"
    "def test_default():\n"
    "    caps = AgentCapabilities(slash_commands=[])\n"
    "    assert caps.slash_commands == []\n"
)


def test_outside_test_files_a_test_is_not_acp008s() -> None:
    analysis = analyze_source(FIELD_TEST.encode(), path="agent.py")
    assert "ACP008" not in {f.code for f in analysis.findings}


def test_a_test_fix_does_not_remove_is_left_whole_and_nothing_in_it_is_edited() -> None:
    # ACP008 deselected (or suppressed on the test's line): no half-edit, no TODO, and no
    # other rule's finding in its place (ignoring a rule never adds findings).
    for settings, source in [
        (RuleSettings(ignore=("ACP008",)), FIELD_TEST),
        (RuleSettings(), FIELD_TEST.replace("def test_default():", "def test_default():  # acp-migrate: ignore[ACP008]")),
    ]:
        analysis = analyze_source(source.encode(), path="tests/test_caps.py", settings=settings)
        assert analysis.fixed_source is None
        assert analysis.findings == []


def test_in_kept_test_code_a_legacy_keyword_is_dropped_never_moved_nor_todo() -> None:
    source = (
        "from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse\n"
        "\n"
        "\n"
        "def make_response(commands):\n"
        "    return InitializeResponse.create(protocol_version=1, slash_commands=commands)\n"
        "\n"
        "\n"
        "def test_load_session():\n"
        "    command = AvailableCommand(name='plan', description='Plan')\n"
        "    caps = AgentCapabilities(load_session=True, slash_commands=[command])\n"
        "    assert caps.load_session\n"
    )
    analysis = analyze_source(source.encode(), path="tests/test_caps.py")

    assert analysis.remaining == []
    fixed = analysis.fixed_source.decode()
    assert "slash_commands" not in fixed and "TODO" not in fixed and "command =" not in fixed
    assert "InitializeResponse.create(protocol_version=1)" in fixed
    ast.parse(fixed)


ABSENCE = (
    "import unittest\n"
    "\n"
    "import pytest\n"
    "\n"
    "from acp.schema import AgentCapabilities\n"
    "\n"
    "\n"
    "def test_absent():\n"
    "    caps = AgentCapabilities()\n"
    '    assert not hasattr(caps, "slash_commands")\n'
    '    assert getattr(caps, "slash_commands", None) is None\n'
    '    assert hasattr(caps, "slash_commands") is False\n'
    "    data = caps.model_dump(by_alias=True)\n"
    '    assert "slashCommands" not in data\n'
    '    assert data.get("slashCommands") is None\n'
    '    assert "slash_commands" not in AgentCapabilities.model_fields\n'
    "    with pytest.raises(AttributeError):\n"
    "        caps.slash_commands\n"
    "\n"
    "\n"
    "class AbsentTest(unittest.TestCase):\n"
    "    def test_absent(self):\n"
    "        caps = AgentCapabilities()\n"
    '        self.assertFalse(hasattr(caps, "slash_commands"))\n'
    '        self.assertIsNone(getattr(caps, "slash_commands", None))\n'
    '        self.assertNotIn("slashCommands", caps.model_dump(by_alias=True))\n'
)


def test_absence_assertions_are_not_acp008s() -> None:
    only = RuleSettings(select=("ACP008",))
    for fix in (True, False):
        analysis = analyze_source(ABSENCE.encode(), path="tests/test_caps.py", fix=fix, settings=only)
        assert analysis.findings == [] and analysis.remaining == [] and analysis.fixed_source is None


OWNED = (
    "from myagent.schema import AgentCapabilities\n"
    "\n"
    "\n"
    "def test_default():\n"
    "    assert AgentCapabilities().slash_commands == []\n"
    "\n"
    "\n"
    "def test_commands():\n"
    "    assert AgentCapabilities(slash_commands=[]).slash_commands == []\n"
)


def test_no_compatibility_test_when_the_run_keeps_the_schemas_field() -> None:
    # A caller is left (suppressed, outside the run): the schema keeps the field, and a
    # test asserting it is gone would fail.
    kept = ProjectFacts(schema_kept_by=("myagent/agent.py:3 (suppressed)",))
    analysis = analyze_source(OWNED.encode(), path="tests/test_schema.py", project=kept)
    fixed = analysis.fixed_source.decode()
    assert "test_old_json_with_slash_commands_still_validates" not in fixed and "def test_" not in fixed
    assert all("in its place" not in f.message for f in analysis.remaining)
    # Undecided, the analysis asks the run for the decision.
    assert analyze_source(OWNED.encode(), path="tests/test_schema.py").needs_project


def test_the_compatibility_test_is_added_once_in_place_of_the_first_removed_test() -> None:
    analysis = analyze_source(OWNED.encode(), path="tests/test_schema.py")
    fixed = analysis.fixed_source.decode()

    assert fixed.count("def test_") == 1
    assert "def test_old_json_with_slash_commands_still_validates():" in fixed
    messages = [f.message for f in analysis.remaining]
    assert len(messages) == 2 and "in its place" in messages[0] and "in its place" not in messages[1]
    assert not any("cover what every session is advertised" in m for m in messages)  # tests of the schema alone
    assert analyze_source(fixed.encode(), path="tests/test_schema.py").fixed_source is None


@pytest.mark.parametrize(
    "source",
    [
        OWNED.replace("myagent.schema", "acp.schema"),  # the SDK's schema: nothing to keep compatible
        OWNED
        + "\n\ndef test_old_json():\n"
        + '    caps = AgentCapabilities.model_validate({"slashCommands": []})\n'
        + "    assert caps is not None\n",  # the file has one already
    ],
)
def test_no_compatibility_test_where_none_is_needed(source: str) -> None:
    fixed = analyze_source(source.encode(), path="tests/test_schema.py").fixed_source.decode()
    assert "test_old_json_with_slash_commands_still_validates" not in fixed
    assert "def test_default" not in fixed and "def test_commands" not in fixed


def test_check_reports_what_fix_does_and_nothing_else_inside_a_removed_test() -> None:
    checked = analyze_source(OWNED.encode(), path="tests/test_schema.py", fix=False).findings
    assert [(f.line, f.code, f.fixable) for f in checked] == [(4, "ACP008", True), (8, "ACP008", True)]


# -- rewritten: tests of an agent's initialize-time list -------------------------------------

AGENT_TESTS = (
    "from unittest.mock import Mock\n"
    "\n"
    "import pytest\n"
    "\n"
    "from myagent.agent import SkillAgent\n"
    "\n"
    "\n"
    "@pytest.fixture\n"
    "def agent():\n"
    "    return SkillAgent(client=Mock())\n"
    "\n"
    "\n"
    "async def test_initialize_exposes_skill_commands(agent):\n"
    '    """The initialize response includes the skills."""\n'
    "    response = await agent.initialize(protocol_version=1)\n"
    "    caps = response.agent_capabilities\n"
    "    assert {c.name for c in caps.slash_commands} == {\"web\"}\n"
    "\n"
    "\n"
    "async def test_initialize_wire_key(agent):\n"
    "    data = (await agent.initialize(protocol_version=1)).model_dump(by_alias=True)\n"
    '    assert data["agentCapabilities"]["slashCommands"][0]["name"] == "web"\n'
)


def _fixed(source: str, path: str = "tests/test_agent.py", **kwargs) -> tuple[str, list[str]]:
    analysis = analyze_source(source.encode(), path=path, **kwargs)
    assert analysis.fixed_source is not None
    return analysis.fixed_source.decode(), [f.message for f in analysis.remaining]


def test_a_test_of_an_agents_initialize_result_is_rewritten_to_what_every_session_is_advertised() -> None:
    fixed, messages = _fixed(AGENT_TESTS)

    assert "async def test_sessions_advertise_skill_commands(agent):" in fixed
    assert '"""Every session is advertised the skills."""' in fixed
    # The arrangement and the call stay; the read is the advertiser's; the assertion is kept.
    assert "    await agent.initialize(protocol_version=1)\n" in fixed
    assert "caps =" not in fixed  # a local only the read used
    assert '    assert {c.name for c in agent.command_advertiser.commands()} == {"web"}\n' in fixed
    # A wire-key read dumps each command as the test dumped the response.
    assert (
        "[command.model_dump(by_alias=True) for command in agent.command_advertiser.commands()]"
        '[0]["name"] == "web"' in fixed
    )
    assert "slash_commands" not in fixed and "slashCommands" not in fixed
    ast.parse(fixed)
    assert any(
        m.startswith("rewrote test `test_initialize_exposes_skill_commands` as `test_sessions_advertise_skill_commands`")
        for m in messages
    ), messages
    assert not any("deleted, not updated" in m for m in messages)
    again = analyze_source(fixed.encode(), path="tests/test_agent.py")
    assert again.fixed_source is None and again.findings == []


@pytest.mark.parametrize(
    "arrangement",
    [
        # asked over the wire, through the SDK's client side: the commands arrive in notifications
        "    conn = connect_to_agent(object(), None, None)\n    response = await conn.initialize(protocol_version=1)\n",
        # an agent built inside a helper: no handle on it to ask
        "    response = await make_response()\n",
    ],
)
def test_what_is_not_an_agents_initialize_result_is_not_rewritten(arrangement: str) -> None:
    source = (
        "from acp import connect_to_agent\n"
        "\n"
        "\n"
        "async def make_response():\n"
        "    return await object().initialize()\n"
        "\n"
        "\n"
        "async def test_initialize_lists_commands():\n"
        + arrangement
        + "    assert len(response.agent_capabilities.slash_commands) == 1\n"
    )
    fixed, messages = _fixed(source)
    assert "command_advertiser" not in fixed
    assert "def test_initialize_lists_commands" not in fixed  # removed, as a test of the field
    [removal] = [m for m in messages if m.startswith("removed test `test_initialize_lists_commands`")]
    assert "cover what every session is advertised in a test of its own" in removal  # RFC-0032 §4


def test_a_rewritten_test_keeps_its_name_when_the_new_one_is_taken_or_it_is_called() -> None:
    taken = AGENT_TESTS + "\n\ndef test_sessions_advertise_skill_commands():\n    pass\n"
    fixed, _ = _fixed(taken)
    assert "async def test_initialize_exposes_skill_commands(agent):" in fixed
    assert fixed.count("agent.command_advertiser.commands()") == 2


# The project runs its async tests itself (AgentPool: pytest-asyncio's auto mode).
ASYNC_CONFTEST = """
import asyncio
import inspect

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        names = pyfuncitem._fixtureinfo.argnames
        asyncio.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in names}))
        return True
    return None
"""

GOLDEN_AGENTPOOL = Path(__file__).resolve().parents[1] / "golden" / "tests-rewrite-mock-client" / "input"


@pytest.mark.slow  # the project's tests, in a process of their own
def test_rewritten_agentpool_tests_fail_when_no_skill_reaches_a_session(tmp_path: Path) -> None:
    """The change issue 22 names: `get_skill_commands()` returning `[]` stops every skill
    reaching any client. After fix, the rewritten tests must catch it."""
    # The whole project migrated by `fix` (the vendored shim beside the agent), then its
    # tests run as the project runs them.
    shutil.copytree(GOLDEN_AGENTPOOL, tmp_path, dirs_exist_ok=True)
    (tmp_path / "conftest.py").write_text(ASYNC_CONFTEST)
    migrated = run_acp_migrate("fix", ".", cwd=tmp_path, text=True)
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr
    agent = tmp_path / "myagent" / "acp_agent.py"
    assert "self.command_advertiser.advertise(self.get_skill_commands)" in agent.read_text()
    assert (tmp_path / "myagent" / "acp_command_advertiser.py").exists()

    def run() -> tuple[int, str]:
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-rA", "-q", "tests"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        return result.returncode, result.stdout + result.stderr

    code, output = run()
    assert code == 0, output
    assert "PASSED tests/test_acp_skill_commands.py::test_sessions_advertise_skill_commands" in output

    working = agent.read_text()
    broken = working.replace(
        "        return [AvailableCommand(name=skill", "        return []\n        return [AvailableCommand(name=skill"
    )
    assert broken != working
    agent.write_text(broken)
    code, output = run()
    assert code == 1, output
    assert "FAILED tests/test_acp_skill_commands.py::test_sessions_advertise_skill_commands" in output
    assert "PASSED tests/test_acp_skill_commands.py::test_sessions_advertise_without_skills_has_empty_commands" in output


def test_the_test_vocabulary_imports_nothing_of_the_engine() -> None:
    """The rules layer sits below the engine: the prefilter imports the rules, so a test
    module importing the prefilter back would close a circle."""
    package = Path(__file__).resolve().parents[1] / "acp_migrate" / "rules" / "shared" / "legacy_tests"
    for path in sorted(package.glob("*.py")):
        tree = ast.parse(path.read_text())
        imported = {
            node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
        } | {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        assert not {name for name in imported if name.startswith("acp_migrate.engine")}, path.name


# -- a module left with no test -----------------------------------------------------------

EMPTIED = (
    '"""The initialize response advertises the slash commands."""\n'
    "\n"
    "import pytest\n"
    "\n"
    "from acp.schema import AgentCapabilities\n"
    "\n"
    "\n"
    "@pytest.fixture\n"
    "def caps():\n"
    "    return AgentCapabilities(slash_commands=[])\n"
    "\n"
    "\n"
    "def test_default(caps):\n"
    "    assert caps.slash_commands == []\n"
)


def test_a_module_left_with_no_test_is_removed_by_fix_and_by_the_diff_applied(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return run_acp_migrate(*args, cwd=tmp_path, text=True)

    kept = "def test_other():\n    assert True\n"
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_emptied.py").write_text(EMPTIED)
    (tmp_path / "tests" / "test_kept.py").write_text(EMPTIED + "\n\n" + kept)
    for args in (("init", "-q", "."), ("add", "-A"), ("commit", "-q", "-m", "legacy")):
        assert git(tmp_path, *args).returncode == 0

    diff = run("diff", "tests")
    assert "+++ /dev/null" in diff.stdout, diff.stdout
    patch = tmp_path / "fix.diff"
    patch.write_text(diff.stdout)
    assert git(tmp_path, "apply", str(patch)).returncode == 0
    assert not (tmp_path / "tests" / "test_emptied.py").exists()
    applied = (tmp_path / "tests" / "test_kept.py").read_text()
    assert "def test_other" in applied and "def caps" not in applied and "test_default" not in applied

    assert git(tmp_path, "checkout", "-q", ".").returncode == 0
    fixed = run("fix", "tests")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert not (tmp_path / "tests" / "test_emptied.py").exists()
    assert (tmp_path / "tests" / "test_kept.py").read_text() == applied
    lines = fixed.stdout.splitlines()
    assert "Deleted tests/test_emptied.py" in lines and "Fixed tests/test_kept.py" in lines, lines
    assert any(line.startswith("tests/test_emptied.py:") and "ACP008 removed this file" in line for line in lines)
    assert any("ACP008 removed `caps` (a fixture or helper)" in line for line in lines), lines


def test_a_module_with_anything_else_in_it_is_not_removed() -> None:
    # A class that is not a test (a fake agent another module may import) keeps the file.
    source = EMPTIED + "\n\nclass FakeAgent:\n    pass\n"
    analysis = analyze_source(source.encode(), path="tests/test_caps.py")
    assert not analysis.deleted
    assert "class FakeAgent" in analysis.fixed_source.decode()
    # Suppressed at its first test, the module's removal is not done.
    suppressed = EMPTIED.replace("def test_default(caps):", "def test_default(caps):  # acp-migrate: ignore[ACP008]")
    assert not analyze_source(suppressed.encode(), path="tests/test_caps.py").deleted


def test_no_compatibility_test_when_the_run_does_not_cover_the_schema(tmp_path: Path) -> None:
    # `fix tests` alone: the schema module is the project's, outside the run, and keeps its field.
    from acp_migrate.engine.execution.modules import file_system_modules

    (tmp_path / "myagent").mkdir()
    (tmp_path / "myagent" / "schema.py").write_text("class AgentCapabilities: ...\n")
    (tmp_path / "tests").mkdir()
    test_file = tmp_path / "tests" / "test_schema.py"
    test_file.write_text(OWNED)

    def fixed(run_paths: tuple[str, ...]) -> str:
        analysis = analyze_source(
            OWNED.encode(),
            path="tests/test_schema.py",
            modules=file_system_modules(str(test_file)),
            project=ProjectFacts(run_paths=run_paths),
        )
        return analysis.fixed_source.decode()

    assert "test_old_json_with_slash_commands_still_validates" not in fixed((str(tmp_path / "tests"),))
    assert "test_old_json_with_slash_commands_still_validates" in fixed((str(tmp_path),))


# -- check reports what fix does in test files, whatever check cuts --------------------------

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def _case_input(path: Path) -> Path:
    return next(folder for folder in path.parents if folder.name == "input")


GOLDEN_TESTS = sorted(
    p for p in GOLDEN.glob("*/input/**/*.py") if is_test_path(p.relative_to(_case_input(p)).as_posix(), DEFAULT)
)


def test_there_are_golden_test_files() -> None:
    assert len(GOLDEN_TESTS) >= 15


@pytest.mark.parametrize("path", GOLDEN_TESTS, ids=[p.relative_to(GOLDEN).as_posix() for p in GOLDEN_TESTS])
def test_check_reports_in_test_files_what_fix_does(path: Path) -> None:
    """`check` reads a file with the bodies of definitions holding no legacy token cut
    (engine/analysis/hollow.py): the tests' plans must not depend on what it cuts."""
    from acp_migrate.engine.execution.modules import in_memory_modules

    root = _case_input(path)
    files = {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*.py")}
    name = path.relative_to(root).as_posix()
    for source in (files[name], files[name] + b"\n\ndef filler():\n    return 1\n"):

        def findings(fix: bool, source: bytes = source) -> list[tuple[int, str, str]]:
            analysis = analyze_source(source, path=name, fix=fix, modules=in_memory_modules(files, name))
            return [(f.line, f.code, f.message) for f in analysis.findings]

        assert findings(False) == findings(True)
