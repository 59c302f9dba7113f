"""The public Python API: typed results, configuration like the CLI, lazy import."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import acp_migrate
from acp_migrate import ConfigError, Finding, RunReport, SourceReport
from acp_migrate.api import Mode

LEGACY = "from acp.schema import AgentCapabilities\n\nCAPS = AgentCapabilities(load_session=True, slash_commands=[])\n"
FIXED = LEGACY.replace(", slash_commands=[]", "")


def write(path: Path, content: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    return path


def test_importing_the_package_or_the_runtime_loads_neither_libcst_nor_typer() -> None:
    probe = (
        "import sys, acp_migrate, acp_migrate.runtime\n"
        "acp_migrate.check_paths, acp_migrate.fix_source  # the API, loaded on first use\n"
        "print(sorted(m for m in ('libcst', 'typer') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)

    assert result.stdout.strip() == "[]"


def test_the_api_is_exported_lazily() -> None:
    assert acp_migrate.check_paths is acp_migrate.api.check_paths
    assert "fix_source" in dir(acp_migrate)
    with pytest.raises(AttributeError):
        acp_migrate.no_such_thing  # noqa: B018


def test_check_paths_reports_without_writing(tmp_path: Path) -> None:
    agent = write(tmp_path / "agent.py", LEGACY)
    write(tmp_path / "clean.py", FIXED)

    report = acp_migrate.check_paths([tmp_path], isolated=True)

    assert isinstance(report, RunReport)
    assert report.mode is Mode.CHECK and report.files_scanned == 2
    assert [(Path(f.path).name, f.code, f.fixable) for f in report.findings] == [("agent.py", "ACP001", True)]
    assert all(isinstance(f, Finding) for f in report.findings)
    assert report.exit_code == 1 and report.elapsed >= 0
    assert agent.read_text() == LEGACY


def test_diff_and_fix_paths(tmp_path: Path) -> None:
    agent = write(tmp_path / "agent.py", LEGACY)

    diff = acp_migrate.diff_paths([agent], isolated=True)
    fixed = acp_migrate.fix_paths([agent], isolated=True)
    again = acp_migrate.fix_paths([agent], isolated=True)

    assert diff.exit_code == 1 and b"-CAPS = AgentCapabilities(load_session=True, slash_commands=[])" in diff.patch
    assert [Path(p).name for p in diff.changed_files] == ["agent.py"]
    assert fixed.exit_code == 0 and [Path(p).name for p in fixed.changed_files] == ["agent.py"]
    assert agent.read_text() == FIXED
    assert again.changed_files == []


def test_path_functions_read_the_configuration_and_take_overrides(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.acp-migrate]\nignore = ['ACP001']\n")
    agent = write(tmp_path / "agent.py", LEGACY)

    from_file = acp_migrate.check_paths([agent])
    overridden = acp_migrate.check_paths([agent], select=["ACP001"])

    assert from_file.findings == [] and from_file.options.config_file == str(tmp_path / "pyproject.toml")
    assert [f.code for f in overridden.findings] == ["ACP001"]


def test_a_bad_configuration_raises(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.acp-migrate]\nselct = ['ACP001']\n")

    with pytest.raises(ConfigError, match="unknown key 'selct'"):
        acp_migrate.check_paths([tmp_path])


def test_unknown_overrides_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="selct"):
        acp_migrate.check_paths([tmp_path], selct=["ACP001"])


def test_fix_source_str_in_str_out_and_bytes_in_bytes_out() -> None:
    text = acp_migrate.fix_source(LEGACY, path="agent.py", isolated=True)
    raw = acp_migrate.fix_source(LEGACY.encode(), path="agent.py", isolated=True)

    assert isinstance(text, SourceReport)
    assert (text.output, text.changed, text.exit_code) == (FIXED, True, 0)
    assert raw.output == FIXED.encode()
    assert [f.code for f in text.findings] == ["ACP001"]


def test_source_functions_report_errors_instead_of_raising() -> None:
    broken = "slash_commands = (\n"

    checked = acp_migrate.check_source(broken, isolated=True)
    fixed = acp_migrate.fix_source(broken, isolated=True)

    assert checked.error is not None and checked.exit_code == 2
    assert fixed.output == broken and fixed.exit_code == 2


def test_diff_source_and_check_source() -> None:
    diff = acp_migrate.diff_source(LEGACY, path="pkg/agent.py", isolated=True)
    check = acp_migrate.check_source(LEGACY, path="pkg/agent.py", isolated=True)

    assert diff.patch.startswith("--- a/pkg/agent.py\n+++ b/pkg/agent.py\n@@ ")
    assert diff.exit_code == 1
    assert check.output == LEGACY and check.exit_code == 1
    assert [f.path for f in check.findings] == ["pkg/agent.py"]


def test_list_rules_matches_the_registry() -> None:
    from acp_migrate.probe.checks import WIRE_RULES
    from acp_migrate.rules import ALL_RULES

    infos = acp_migrate.list_rules()

    # The static rules, ACP100, then the probe's wire rules (ACP101...).
    assert [i.code for i in infos] == [r.code for r in ALL_RULES] + ["ACP100"] + [c.code for c in WIRE_RULES]
    assert acp_migrate.rule_info("acp001").name == ALL_RULES[0].name


AGENT_IN_MEMORY = (
    "from acp.schema import InitializeResponse, NewSessionResponse\n"
    "\n"
    "\n"
    "class Agent:\n"
    "    def __init__(self):\n"
    "        self.skills = []\n"
    "\n"
    "    def on_connect(self, conn):\n"
    "        self.conn = conn\n"
    "\n"
    "    async def initialize(self, protocol_version, **kwargs):\n"
    "        return InitializeResponse.create(protocol_version=1, slash_commands=self.skills)\n"
    "\n"
    "    async def new_session(self, cwd, **kwargs):\n"
    "        return NewSessionResponse(session_id=cwd)\n"
)


def test_a_source_fixed_in_memory_says_the_vendored_shim_is_not_written(tmp_path: Path) -> None:
    # The fixed code imports the vendored shim; only a run over files writes it.
    report = acp_migrate.fix_source(AGENT_IN_MEMORY, path=str(tmp_path / "agent.py"), isolated=True)
    assert "from acp_command_advertiser import CommandAdvertiser" in report.output
    assert [(f.code, f.fixable) for f in report.remaining] == [("ACP009", False)]
    assert "acp_command_advertiser.py" in report.remaining[0].message
    assert report.exit_code == 1

    # With the shim already beside the file (a run over its folder wrote it), nothing is left.
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "agent.py").write_text(AGENT_IN_MEMORY)
    assert acp_migrate.fix_paths([folder], isolated=True).exit_code == 0
    (folder / "agent.py").write_text(AGENT_IN_MEMORY)
    again = acp_migrate.fix_source(AGENT_IN_MEMORY, path=str(folder / "agent.py"), isolated=True)
    assert again.remaining == [] and again.exit_code == 0

    # A dependency import needs no file.
    installed = acp_migrate.fix_source(AGENT_IN_MEMORY, isolated=True, runtime_import="acp_migrate.runtime")
    assert installed.remaining == [] and "from acp_migrate.runtime import CommandAdvertiser" in installed.output
