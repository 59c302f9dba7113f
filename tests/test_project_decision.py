"""The project-wide decision (engine/execution/project.py) reads only what it needs:
the files that can hold a caller of an owned schema, with check's analysis."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from acp_migrate.engine.analysis import needs_libcst
from acp_migrate.engine.execution import project
from acp_migrate.settings import DEFAULT_SETTINGS

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "legacy_agent"


def test_the_decision_analyses_only_the_files_that_can_hold_a_caller(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "legacy_agent"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("__pycache__", "tests"))
    (root / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    for index in range(20):  # the field in prose only, as in a migrated project's docs
        (root / f"notes_{index}.py").write_text(f'"""slash_commands went with RFC-0032 ({index})."""\n')
    analysed = []
    real = project.analyze_source

    def recording(source: bytes, **kwargs):
        analysed.append((Path(kwargs["path"]).name, kwargs["fix"]))
        return real(source, **kwargs)

    monkeypatch.setattr(project, "analyze_source", recording)
    schema = str(root / "schema.py")
    facts = project.decide(
        root=str(root),
        run_paths=[schema],  # `fix schema.py` alone, as the pre-commit hook runs it
        run_files={schema: []},
        settings=DEFAULT_SETTINGS,
        options=None,
        cwd=str(root),
    )
    assert any("agent.py" in left and "not in this run" in left for left in facts.schema_kept_by)
    assert sorted(analysed) == [("agent.py", False)]
    assert needs_libcst((root / "agent.py").read_bytes(), "agent.py")
    assert not needs_libcst((root / "notes_0.py").read_bytes(), "notes_0.py")


INITIALIZE_TEST = (EXAMPLE / "tests" / "test_initialize.py").read_text()  # `from agent import LegacyACPAgent`

FIXTURE_TEST = """import asyncio


def test_initialize_exposes_skill_commands(legacy_agent):
    response = asyncio.run(legacy_agent.initialize(protocol_version=1))
    names = [command.name for command in response.agent_capabilities.slash_commands]
    assert names == ["web", "test", "plan"]
"""
AGENT_FIXTURE = """import pytest
from agent import LegacyACPAgent


@pytest.fixture
def legacy_agent():
    return LegacyACPAgent()
"""


def _one_file_run_names(root: Path) -> list[str]:
    """The test files a `fix agent.py` run names as left behind in the project at `root`."""
    from support.command import run_acp_migrate

    fixed = run_acp_migrate("fix", "agent.py", cwd=root, text=True)
    assert fixed.returncode in (0, 1), fixed.stdout + fixed.stderr
    return sorted({line.split(":")[0] for line in fixed.stdout.splitlines() if project.LEFT_BEHIND in line})


def _project(tmp_path: Path, tests: dict[str, str]) -> Path:
    root = tmp_path / "legacy_agent"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("__pycache__", "tests"))
    (root / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    for name, text in tests.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_a_one_file_run_names_the_tests_that_reach_the_migrated_module(tmp_path: Path) -> None:
    schema_test = (EXAMPLE / "tests" / "test_capabilities.py").read_text()
    root = _project(
        tmp_path,
        {
            "tests/test_direct.py": INITIALIZE_TEST,
            "tests/test_schema.py": schema_test,  # the schema's field: agent.py's run leaves it
            "tests/test_through_package.py": INITIALIZE_TEST.replace("from agent import", "from app import"),
            "app/__init__.py": "from agent import LegacyACPAgent\n",
            "tests/fixtures/test_by_conftest.py": FIXTURE_TEST,  # the agent from a fixture
            "tests/fixtures/conftest.py": AGENT_FIXTURE,
            "tests/test_by_process.py": 'import sys\nARGV = [sys.executable, "agent.py"]\n' + schema_test,
        },
    )
    assert _one_file_run_names(root) == [
        "tests/fixtures/test_by_conftest.py",
        "tests/test_by_process.py",
        "tests/test_direct.py",
        "tests/test_through_package.py",
    ]
