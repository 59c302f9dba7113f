"""The vendored runtime shim: `fix` writes it beside the agent module (the default), so a
migrated server needs nothing acp-migrate did not find it depending on.

The bundled examples, migrated, run and advertise per session in a virtualenv holding
only the ACP SDK (and its pydantic), acp-migrate not importable there (checked); the
runner writes the file once, never over another file of that name, shows it in diff;
ACP009 judges a copy by its code: an outdated one is refreshed, a reformatted one is
current, an edited one is reported and left; ruff finds nothing new in the migrated
examples.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import test_e2e_agentpool_shape as agentpool
import test_e2e_migration as legacy
from support.acp_stdio import AgentProcess
from support.command import run_acp_migrate
from support.sdk_venv import sdk_python

from acp_migrate import __version__
from acp_migrate.engine.execution.runner import run
from acp_migrate.report.diff import render_diff
from acp_migrate.report.text import render_fix
from acp_migrate.results import Mode
from acp_migrate.settings import ProjectStyle, RuleSettings
from acp_migrate.vendor import HEADER, VENDORED_FILE, header_version, vendored_source

pytestmark = pytest.mark.slow  # the command, ruff, and agents on SDK virtualenvs

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
RUFF = Path(sys.executable).parent / "ruff"


def sdk_only_env() -> dict[str, str]:
    """No PYTHONPATH (unlike sdk_env): only what the SDK's virtualenv holds is importable."""
    return {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}}


def assert_sdk_only(python: Path) -> None:
    probe = "import acp, pydantic\ntry:\n import acp_migrate\nexcept ModuleNotFoundError:\n print('absent')\n"
    result = subprocess.run([str(python), "-c", probe], env=sdk_only_env(), cwd="/", capture_output=True, text=True)
    assert result.stdout.strip() == "absent", result.stdout + result.stderr


def fix(folder: Path) -> subprocess.CompletedProcess[str]:
    return run_acp_migrate("fix", ".", cwd=folder, text=True)


def copy_example(name: str, tmp_path: Path, *ignore: str) -> Path:
    copy = tmp_path / name
    shutil.copytree(EXAMPLES / name, copy, ignore=shutil.ignore_patterns("__pycache__", *ignore))
    return copy


def assert_vendored(copy: Path) -> None:
    shim = copy / VENDORED_FILE
    assert shim.read_bytes() == vendored_source() and header_version(shim.read_bytes()) == __version__
    agent = (copy / "agent.py").read_text()
    assert "from acp_command_advertiser import CommandAdvertiser\n" in agent and "acp_migrate" not in agent


def test_the_legacy_example_runs_on_sdk_0_12_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    python = sdk_python("0.12.1")
    assert_sdk_only(python)
    copy = copy_example("legacy_agent", tmp_path, "tests")
    result = fix(copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"added 1 file ({VENDORED_FILE})" in result.stdout
    assert_vendored(copy)
    monkeypatch.setattr(legacy, "AgentProcess", functools.partial(AgentProcess, python=str(python), env=sdk_only_env()))
    seen = asyncio.run(legacy.drive_migrated(copy / "agent.py", tmp_path))
    original = asyncio.run(legacy.legacy_commands(tmp_path))
    own = [{"name": "help", "description": "Show what this agent can do"}]
    assert seen == {method: (own if method == "session/new" else []) + original for method in legacy.SETUP_METHODS}


def test_the_agentpool_example_runs_on_sdk_0_6_3_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    python = sdk_python("0.6.3")
    assert_sdk_only(python)
    copy = copy_example("agentpool_shape", tmp_path)
    result = fix(copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert_vendored(copy)
    workdir = tmp_path / "work"
    workdir.mkdir()
    monkeypatch.setattr(agentpool, "sdk_env", lambda **extra: {**sdk_only_env(), **extra})
    init, after = agentpool.observe(python, copy / "agent.py", workdir, (True,) * len(agentpool.EXPECTED_METHODS))
    assert "slashCommands" not in json.dumps(init)
    full, moved = ["help", "web", "review"], ["web", "review"]
    assert [agentpool.names(setup.commands) for setup in after] == [full, full, moved, full, full, moved]
    assert [setup for setup in after if setup.early] == []


def _ruff(folder: Path) -> set[tuple[str, str]]:
    result = subprocess.run(
        [str(RUFF), "check", "--isolated", "--line-length", "120", "--select", "E402,I001,F401",
         "--output-format", "json", "."],
        cwd=folder, capture_output=True, text=True, timeout=60,
    )
    return {(Path(item["filename"]).relative_to(folder).as_posix(), item["code"]) for item in json.loads(result.stdout)}


@pytest.mark.skipif(not RUFF.exists(), reason="ruff is in the test extra")
@pytest.mark.parametrize("example", ["legacy_agent", "agentpool_shape"])
def test_ruff_finds_nothing_new_in_the_migrated_examples(tmp_path: Path, example: str) -> None:
    copy = copy_example(example, tmp_path)
    before = _ruff(copy)
    fix(copy)
    assert (copy / VENDORED_FILE).exists()
    assert _ruff(copy) <= before


# Rule sets projects commonly select: the copy lands in their tree, under their linter
# (AgentPool's ruff found RUF021 in it once).
COMMON_RUFF_RULES = "E,F,W,I,B,RUF,UP,SIM,C4,PIE,RET,PLE,PLW"


def test_ruff_finds_nothing_in_the_vendored_copy(tmp_path: Path) -> None:
    (tmp_path / VENDORED_FILE).write_bytes(vendored_source())
    result = subprocess.run(
        [str(RUFF), "check", "--isolated", "--line-length", "79", "--target-version", "py310",
         "--select", COMMON_RUFF_RULES, VENDORED_FILE],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr


AGENT = '''from typing import Any

from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse


class TinyAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse.create(protocol_version=protocol_version, slash_commands=self.commands())

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s1")

    def commands(self) -> list:
        return [AvailableCommand(name="web", description="Search")]
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "agent.py").write_text(AGENT)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_fix_writes_the_shim_once_and_diff_shows_it_new(project: Path) -> None:
    shown = run(Mode.DIFF, ["agent.py"])
    patch = render_diff(shown)
    assert b"--- /dev/null\n+++ b/acp_command_advertiser.py\n@@ -0,0 +1," in patch
    assert not (project / VENDORED_FILE).exists()
    fixed = run(Mode.FIX, ["agent.py"])
    assert (project / VENDORED_FILE).read_bytes() == vendored_source()
    assert "Added acp_command_advertiser.py" in render_fix(fixed)
    again = run(Mode.FIX, ["agent.py", VENDORED_FILE])
    assert not again.companions and not again.changed_files and again.exit_code() == 0


def test_another_file_of_that_name_is_never_replaced(project: Path) -> None:
    (project / VENDORED_FILE).write_text("MINE = 1\n")
    result = run(Mode.FIX, ["agent.py"])
    assert [error.path for error in result.errors] == ["agent.py"]
    assert "is not acp-migrate's vendored runtime" in result.errors[0].reason
    assert (project / "agent.py").read_text() == AGENT and (project / VENDORED_FILE).read_text() == "MINE = 1\n"


def test_an_outdated_copy_is_reported_and_refreshed(project: Path) -> None:
    old = vendored_source("0.0.1").replace(b"self._lock = asyncio.Lock()", b"self._lock = None")
    (project / VENDORED_FILE).write_bytes(old)
    checked = run(Mode.CHECK, [VENDORED_FILE])
    assert [(f.code, f.line, f.fixable) for f in checked.findings] == [("ACP009", 1, True)]
    assert "written by acp-migrate 0.0.1" in checked.findings[0].message
    fixed = run(Mode.FIX, [VENDORED_FILE])
    assert fixed.exit_code() == 0
    assert (project / VENDORED_FILE).read_bytes() == vendored_source()
    assert run(Mode.CHECK, [VENDORED_FILE]).findings == []


def test_an_outdated_crlf_copy_is_refreshed_with_its_line_endings(project: Path) -> None:
    old = vendored_source("0.0.1").replace(b"self._lock = asyncio.Lock()", b"self._lock = None")
    (project / VENDORED_FILE).write_bytes(old.replace(b"\n", b"\r\n"))
    assert run(Mode.FIX, [VENDORED_FILE]).exit_code() == 0
    assert (project / VENDORED_FILE).read_bytes() == vendored_source().replace(b"\n", b"\r\n")


def test_a_copy_an_earlier_build_of_this_release_wrote_is_refreshed(project: Path) -> None:
    """The copy fix wrote before the one shim (what main had in issue 30): its header names
    this release, its code is known as an earlier build's, so it is outdated, not edited."""
    earlier = (REPO / "tests" / "runtime" / "data" / "earlier_build_copy.py").read_text()
    (project / VENDORED_FILE).write_text(HEADER.format(version=__version__) + earlier)
    checked = run(Mode.CHECK, [VENDORED_FILE])
    assert [(f.code, f.line, f.fixable) for f in checked.findings] == [("ACP009", 1, True)]
    assert "an earlier build of acp-migrate" in checked.findings[0].message
    assert run(Mode.FIX, [VENDORED_FILE]).exit_code() == 0
    assert (project / VENDORED_FILE).read_bytes() == vendored_source()


def test_an_older_release_s_copy_with_the_same_code_is_current(project: Path) -> None:
    (project / VENDORED_FILE).write_bytes(vendored_source("0.0.1"))
    assert run(Mode.CHECK, [VENDORED_FILE]).findings == []
    assert not run(Mode.FIX, [VENDORED_FILE]).changed_files


@pytest.mark.skipif(not RUFF.exists(), reason="ruff is in the test extra")
@pytest.mark.parametrize(("length", "quote"), [(79, "single"), (120, "double"), (60, "double")])
def test_a_copy_the_project_s_formatter_rewrote_is_current(project: Path, length: int, quote: str) -> None:
    """By meaning, not bytes: ruff's formatting (rewrapped at 60 columns, other quotes) and
    a comment added or dropped leave the copy current; check and fix leave it alone."""
    shim = project / VENDORED_FILE
    shim.write_bytes(vendored_source())
    subprocess.run(
        [str(RUFF), "format", "--isolated", "--line-length", str(length), "--config", f"format.quote-style='{quote}'"]
        + [shim.name],
        cwd=project, check=True, capture_output=True,
    )
    shim.write_text(shim.read_text().replace("# one list on its way at a time", "# ours: one at a time") + "# end\n")
    formatted = shim.read_bytes()
    assert formatted != vendored_source()
    assert run(Mode.CHECK, [VENDORED_FILE]).findings == []
    fixed = run(Mode.FIX, [VENDORED_FILE])
    assert not fixed.changed_files and fixed.exit_code() == 0 and shim.read_bytes() == formatted


def edited_copy() -> bytes:
    """This release's copy with a line of someone's own added."""
    line = b"self._lock = asyncio.Lock()"
    return vendored_source().replace(line, line + b"\n        self.mine = 1")


def test_an_edited_copy_of_this_release_is_reported_and_left(project: Path) -> None:
    shim = project / VENDORED_FILE
    edited = edited_copy()
    shim.write_bytes(edited)
    checked = run(Mode.CHECK, [VENDORED_FILE])
    assert [(f.code, f.line, f.fixable) for f in checked.findings] == [("ACP009", 1, False)]
    assert checked.exit_code() == 1 and "`fix` leaves it" in checked.findings[0].message
    fixed = run(Mode.FIX, [VENDORED_FILE])
    assert fixed.exit_code() == 1 and not fixed.changed_files and shim.read_bytes() == edited
    result = run_acp_migrate("fix", VENDORED_FILE, cwd=project, text=True)
    assert result.returncode == 1 and shim.read_bytes() == edited, result.stdout + result.stderr
    broken = vendored_source() + b"def (:\n"  # not Python any more: edited too
    shim.write_bytes(broken)
    assert [f.fixable for f in run(Mode.CHECK, [VENDORED_FILE]).findings] == [False]


@pytest.mark.parametrize("kind", ["reformatted", "edited"])
def test_fixing_an_agent_keeps_a_reformatted_or_edited_copy_beside_it(project: Path, kind: str) -> None:
    shim = project / VENDORED_FILE
    if kind == "reformatted":  # what a formatter with single quotes makes of it
        copy = vendored_source(style=ProjectStyle(quote="'"))
    else:
        copy = edited_copy()
    shim.write_bytes(copy)
    fixed = run(Mode.FIX, ["agent.py"])
    assert [f.path for f in fixed.changed_files] == ["agent.py"] and not fixed.companions
    assert shim.read_bytes() == copy


def test_a_module_to_import_from_writes_nothing(project: Path) -> None:
    run(Mode.FIX, ["agent.py"], settings=RuleSettings(runtime_import="acp_migrate.runtime"))
    assert "from acp_migrate.runtime import CommandAdvertiser\n" in (project / "agent.py").read_text()
    assert not (project / VENDORED_FILE).exists()


def test_a_module_path_into_the_project_gets_the_shim_written_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # runtime-import names a module of the project (its package exists, the module not yet):
    # the shim is written there, and the agent, in another folder, imports it by that path.
    (tmp_path / "app" / "vendor").mkdir(parents=True)
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "vendor" / "__init__.py").write_text("")
    (tmp_path / "app" / "server").mkdir()
    (tmp_path / "app" / "server" / "__init__.py").write_text("")
    (tmp_path / "app" / "server" / "agent.py").write_text(AGENT)
    monkeypatch.chdir(tmp_path)
    settings = RuleSettings(runtime_import="app.vendor.acp_shim")

    fixed = run(Mode.FIX, ["app"], settings=settings)

    assert fixed.exit_code() == 0
    assert (tmp_path / "app" / "vendor" / "acp_shim.py").read_bytes() == vendored_source()
    assert "from app.vendor.acp_shim import CommandAdvertiser\n" in (tmp_path / "app" / "server" / "agent.py").read_text()
    assert not (tmp_path / "app" / "server" / VENDORED_FILE).exists()
    probe = "from app.server.agent import TinyAgent; from app.vendor.acp_shim import CommandAdvertiser; print('ok')"
    result = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True)
    assert result.stdout.strip() == "ok", result.stderr


def test_the_vendored_module_is_one_self_contained_file(tmp_path: Path) -> None:
    (tmp_path / VENDORED_FILE).write_bytes(vendored_source())
    probe = "import acp_command_advertiser as m, sys; print(m.__all__); print('acp_migrate' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True)
    exported, imported = result.stdout.splitlines()
    assert "CommandAdvertiser" in exported and imported == "False"
