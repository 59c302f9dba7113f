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
