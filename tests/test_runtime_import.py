"""Where `fix` imports the vendored shim from (rules/shared/runtime_import.py): an import that
resolves however the module is run, in each layout, and `python -m` really starting the
namespace-package and `src/` golden cases `fix` writes."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.command import run_acp_migrate

from acp_migrate.engine.analysis.codemod import analyze_source
from acp_migrate.engine.execution.modules import file_system_modules, in_memory_modules
from acp_migrate.engine.execution.runner import run
from acp_migrate.results import Mode
from acp_migrate.settings import DEFAULT_SETTINGS
from acp_migrate.style import read_style
from acp_migrate.vendor import is_vendored, vendored_source

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

AGENT = b"""from typing import Any

from acp.schema import AvailableCommand, InitializeResponse
%s

class TinyAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        commands = [AvailableCommand(name="web", description="Search")]
        return InitializeResponse.create(protocol_version=protocol_version, slash_commands=commands)
"""
COMMANDS = b'COMMANDS = ["web"]\n'


def shim_import(files: dict[str, bytes], agent: str) -> str:
    """The line `fix` adds to `agent` (a key of `files`, the project in memory) to import the shim."""
    fixed = analyze_source(files[agent], path=agent, modules=in_memory_modules(files, agent)).fixed_source
    assert fixed is not None, "fix changed nothing"
    if EITHER.encode() in fixed:
        return "either"
    return next(line for line in fixed.decode().splitlines() if line.endswith("import CommandAdvertiser"))


# A module that may be a namespace package's or a script: the relative import, else the plain one.
EITHER = (
    "try:\n    from .acp_command_advertiser import CommandAdvertiser\n"
    "except ImportError:  # run as a script\n    from acp_command_advertiser import CommandAdvertiser\n"
)


def agent(imports: str = "") -> bytes:
    return AGENT % imports.encode()


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        # A script: its own folder is on sys.path.
        ({"agent.py": agent("from helpers import COMMANDS\n"), "helpers.py": COMMANDS}, "from acp_command_advertiser"),
        # A script in a folder that imports the project's library from the root: still a script.
        (
            {
                "scripts/agent.py": agent("from mylib.util import COMMANDS\n"),
                "mylib/__init__.py": b"",
                "mylib/util.py": COMMANDS,
            },
            "either",  # `python scripts/agent.py` with the root on the path, or `python -m scripts.agent`
        ),
        # A package's module.
        ({"pkg/__init__.py": b"", "pkg/agent.py": agent()}, "from .acp_command_advertiser"),
        # Its own folder imported absolutely, with and without __init__.py files.
        (
            {
                "app/__init__.py": b"",
                "app/agents/__init__.py": b"",
                "app/agents/agent.py": agent("from app.agents.tools import COMMANDS\n"),
                "app/agents/tools.py": COMMANDS,
            },
            "from app.agents.acp_command_advertiser",
        ),
        (
            {"app/agents/agent.py": agent("from app.agents.tools import COMMANDS\n"), "app/agents/tools.py": COMMANDS},
            "from app.agents.acp_command_advertiser",
        ),
        # A namespace package (PEP 420) importing another module of its top package absolutely,
        # as a module (`from acme.commands`) and as a package (`import acme.tools`).
        (
            {"acme/agents/agent.py": agent("from acme.commands import COMMANDS\n"), "acme/commands.py": COMMANDS},
            "from acme.agents.acp_command_advertiser",
        ),
        (
            {"acme/agents/agent.py": agent("import acme.tools\n"), "acme/tools/__init__.py": COMMANDS},
            "from acme.agents.acp_command_advertiser",
        ),
        # A namespace package importing relatively: only a package's module can.
        (
            {"acme/agents/agent.py": agent("from .tools import COMMANDS\n"), "acme/agents/tools.py": COMMANDS},
            "from .acp_command_advertiser",
        ),
        # src/ layouts: below src/ a module of a package; directly in src/ a top-level module.
        ({"src/acme/coder/agent.py": agent()}, "from .acp_command_advertiser"),
        ({"src/agent.py": agent()}, "from acp_command_advertiser"),
    ],
    ids=[
        "script",
        "script-in-folder-importing-root-library",
        "package",
        "package-own-folder-absolute",
        "namespace-own-folder-absolute",
        "namespace-top-package-module-absolute",
        "namespace-top-package-package-absolute",
        "namespace-relative",
        "src-layout-package",
        "src-top-level-module",
    ],
)
def test_the_shim_is_imported_as_the_module_is_run(files: dict[str, bytes], expected: str) -> None:
    module = next(name for name, source in files.items() if b"class TinyAgent" in source)
    assert shim_import(files, module) == (expected if expected == "either" else f"{expected} import CommandAdvertiser")


def test_a_configured_runtime_import_is_written_as_it_is() -> None:
    files = {"acme/agents/agent.py": agent("from .tools import COMMANDS\n"), "acme/agents/tools.py": COMMANDS}
    settings = dataclasses.replace(DEFAULT_SETTINGS, runtime_import="acp_migrate.runtime")
    path = "acme/agents/agent.py"
    fixed = analyze_source(files[path], path=path, modules=in_memory_modules(files, path), settings=settings)
    assert b"\nfrom acp_migrate.runtime import CommandAdvertiser\n" in fixed.fixed_source


@pytest.mark.parametrize(
    ("project_file", "expected"),
    [
        (None, "either"),  # ~/src/proj/agent.py: a script of ~/src/proj, or `python -m proj.agent` from ~/src
        ("pyproject.toml", "from .acp_command_advertiser"),
        ("setup.cfg", "from .acp_command_advertiser"),
    ],
)
def test_a_src_folder_on_disk_is_a_layout_root_only_beside_the_project_file(
    tmp_path: Path, project_file: str | None, expected: str
) -> None:
    # Without a project file beside it, src/ is a folder of projects (~/src/proj/agent.py: a
    # script, or a namespace package's module); with one it is a src/ layout's root (package proj).
    folder = tmp_path / "src" / "proj"
    folder.mkdir(parents=True)
    if project_file is not None:
        (tmp_path / project_file).write_text("")
    path = folder / "agent.py"
    path.write_bytes(agent())
    for named in (str(path), os.path.relpath(path)):  # as the run names it: absolute, or from where it runs
        fixed = analyze_source(path.read_bytes(), path=named, modules=file_system_modules(named)).fixed_source
        wanted = EITHER if expected == "either" else f"\n{expected} import CommandAdvertiser\n"
        assert wanted.encode() in fixed, named


# -- the golden cases, started as their users start them ---------------------------


@pytest.mark.slow  # runs the command and starts the migrated agents
@pytest.mark.parametrize(
    ("case", "module", "path"),
    [
        ("vendored-namespace-package-relative-imports", "acme.agents.coder", ""),
        ("vendored-namespace-package-absolute-sibling", "acme.agents.coder", ""),
        ("vendored-namespace-package-either-import", "acme.agents.coder", ""),
        ("vendored-src-layout", "acme.coder.agent", "src"),
    ],
)
def test_python_m_starts_the_agent_fix_migrated(tmp_path: Path, case: str, module: str, path: str) -> None:
    # `acp-migrate fix .` in the project's root (files on disk, not the golden suite's memory)
    # writes the golden case's expected files; then the agent starts as its users start it.
    project = tmp_path / case
    shutil.copytree(GOLDEN / case / "input", project)
    fixed = run_acp_migrate("fix", ".", cwd=project, text=True)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    shim = vendored_source(style=read_style(GOLDEN / case / "input"))
    expected = {
        file.relative_to(GOLDEN / case / "expected"): shim if is_vendored(file.read_bytes()) else file.read_bytes()
        for file in (GOLDEN / case / "expected").rglob("*")
        if file.is_file()
    }
    assert {file.relative_to(project): file.read_bytes() for file in project.rglob("*") if file.is_file()} == expected
    assert '__name__ == "__main__"' in (project / path / module.replace(".", "/")).with_suffix(".py").read_text()
    # `python -m` from the project's root (with src/ on PYTHONPATH, as an install puts it);
    # an agent whose input ends at once stops with status 0 once it has started.
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    if path:
        env["PYTHONPATH"] = str(project / path)
    _assert_starts([sys.executable, "-m", module], project, env)


def _assert_starts(command: list[str], project: Path, env: dict[str, str]) -> None:
    """The agent starts, then stops with status 0 when its input ends."""
    started = subprocess.run(
        command,
        cwd=project,
        env=env,
        input="",  # a pipe that ends at once (/dev/null cannot be watched by asyncio)
        capture_output=True,
        text=True,
        check=False,
        timeout=60,  # a hang guard only
    )
    assert started.returncode == 0, started.stderr
    assert "Error" not in started.stderr, started.stderr


def test_a_module_path_into_a_namespace_package_gets_the_shim_written_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # runtime-import names a module of a PEP 420 package of the project (acme/vendor/, no
    # __init__.py anywhere): the shim is written there, not left for an import that fails.
    (tmp_path / "acme" / "vendor").mkdir(parents=True)
    (tmp_path / "acme" / "vendor" / "other.py").write_text('"""Vendored code."""\n')
    (tmp_path / "acme" / "agents").mkdir()
    (tmp_path / "acme" / "agents" / "coder.py").write_bytes(agent("from .tools import COMMANDS\n"))
    (tmp_path / "acme" / "agents" / "tools.py").write_bytes(COMMANDS)
    monkeypatch.chdir(tmp_path)
    settings = dataclasses.replace(DEFAULT_SETTINGS, runtime_import="acme.vendor.acp_shim")

    assert run(Mode.FIX, ["."], settings=settings).exit_code() == 0

    assert (tmp_path / "acme" / "vendor" / "acp_shim.py").read_bytes() == vendored_source()
    assert "\nfrom acme.vendor.acp_shim import CommandAdvertiser\n" in (tmp_path / "acme/agents/coder.py").read_text()
    probe = "from acme.agents.coder import TinyAgent; from acme.vendor.acp_shim import CommandAdvertiser; print('ok')"
    started = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert started.stdout.strip() == "ok", started.stderr
    again = run(Mode.FIX, ["."], settings=settings)  # the copy it wrote is current: nothing to do
    assert again.exit_code() == 0 and not again.changed_files and not again.companions


@pytest.mark.slow  # runs the command and starts the migrated agent
def test_the_module_that_may_be_either_starts_as_a_script_too(tmp_path: Path) -> None:
    """The namespace package's module that imports nothing of its project gets both imports:
    `python -m acme.agents.coder` takes the relative one (above), a script run the plain one."""
    project = tmp_path / "project"
    shutil.copytree(GOLDEN / "vendored-namespace-package-either-import" / "input", project)
    fixed = run_acp_migrate("fix", ".", cwd=project, text=True)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    _assert_starts([sys.executable, "acme/agents/coder.py"], project, {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
