"""ACP008 and the test vocabulary the other rules share (rules/shared/legacy_tests.py): which
files are test files, what fix does inside their tests, and the compatibility test."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from acp_migrate.config import load_options
from acp_migrate.engine.analysis.codemod import analyze_source
from acp_migrate.rules.shared.legacy_tests.files import is_test_path
from acp_migrate.settings import RuleSettings

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
    # ACP008 deselected (or suppressed on the test's line): no half-edit, no TODO.
    for settings, source in [
        (RuleSettings(ignore=("ACP008",)), FIELD_TEST),
        (RuleSettings(), FIELD_TEST.replace("def test_default():", "def test_default():  # acp-migrate: ignore[ACP008]")),
    ]:
        analysis = analyze_source(source.encode(), path="tests/test_caps.py", settings=settings)
        assert analysis.fixed_source is None
        [keyword] = [f for f in analysis.remaining if f.code == "ACP001"]
        assert not keyword.fixable and "leaves it to a person" in keyword.message


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


def test_the_compatibility_test_is_added_once_in_place_of_the_first_removed_test() -> None:
    analysis = analyze_source(OWNED.encode(), path="tests/test_schema.py")
    fixed = analysis.fixed_source.decode()

    assert fixed.count("def test_") == 1
    assert "def test_old_json_with_slash_commands_still_validates():" in fixed
    messages = [f.message for f in analysis.remaining]
    assert len(messages) == 2 and "in its place" in messages[0] and "in its place" not in messages[1]
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
