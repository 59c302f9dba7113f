"""The golden suite: every folder under golden/ is a case; adding a case is adding a folder.

golden/<case>/input/      the files before `fix`
golden/<case>/expected/   the exact bytes after `fix` (absent: input must stay unchanged); a
                          file of input/ missing from it is one fix removes
golden/<case>/findings.txt  what `fix` leaves for a person, `relpath:line: CODE` (optional)
golden/<case>/check.txt     what `check` reports on the input, `relpath:line: CODE` (optional)

A case's SDK target is taken as a run takes it in input/ (`acp_migrate/sdk.py`): the
`target-sdk` of its pyproject.toml, else the newest release its requirement admits.

from acp_migrate.settings import DEFAULT_SETTINGS, ProjectFacts, RuleSettings
from acp_migrate.style import read_style
installed package), except `vendored-*` cases, which run with the default: fix writes
the shim beside the agent module (`SourceAnalysis.companions`). An expected file whose
first line is the vendored header stands for the shim this acp-migrate writes
(`vendored_source()`), so the cases do not change with each release.
"""

from __future__ import annotations

import ast
import dataclasses
import subprocess
import sys
from pathlib import Path

import libcst
import pytest

from acp_migrate.config import read_config_file
from acp_migrate.config_files import ConfigFiles
from acp_migrate.engine.analysis.codemod import analyze_source
from acp_migrate.engine.execution.modules import in_memory_modules
from acp_migrate.sdk import Target, choose_target, read_requirements
from acp_migrate.settings import DEFAULT_SETTINGS, ProjectFacts, RuleSettings
from acp_migrate.style import read_style
from acp_migrate.vendor import is_vendored, newline_of, vendored_source

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
CASES = sorted(p for p in GOLDEN.iterdir() if (p / "input").is_dir())


DEPENDENCY = RuleSettings(runtime_import="acp_migrate.runtime")


def _settings(case: Path) -> RuleSettings:
    settings = DEFAULT_SETTINGS if case.name.startswith("vendored-") else DEPENDENCY
    # A case with its own linter configuration (input/pyproject.toml) is written in its style.
    if (case / "input" / "pyproject.toml").exists():
        settings = dataclasses.replace(settings, style=read_style(case / "input"))
    return dataclasses.replace(settings, sdk=_target(case / "input"))


def _target(folder: Path) -> Target | None:
    """The case's SDK target, as a run would take it in its folder: its `target-sdk`,
    else the newest release its requirement (pyproject.toml, requirements*.txt) admits."""
    files = ConfigFiles()
    pyproject = folder / "pyproject.toml"
    named = read_config_file(pyproject, files).target_sdk if pyproject.exists() else None
    return choose_target(named, "the case", read_requirements(folder, files))[0]


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def _expected(root: Path, settings: RuleSettings) -> dict[str, bytes]:
    # A vendored-header stub stands for the shim this release writes, in the case's style
    # and with the stub's line endings.
    return {
        name: vendored_source(style=settings.style, newline=newline_of(data)) if is_vendored(data) else data
        for name, data in _files(root).items()
    }


def _listing(path: Path) -> list[str] | None:
    if not path.exists():
        return None
    return [line.strip() for line in path.read_text().splitlines() if line.strip()]


def _project(files: dict[str, bytes], settings: RuleSettings) -> ProjectFacts:
    """The decision a run of `fix` over the whole case makes (engine/execution/project.py):
    the callers fix leaves keep an owned schema's field."""
    left = [
        f"{finding.path}:{finding.line} ({why})"
        for name, source in files.items()
        for finding, why in analyze_source(
            source, path=name, modules=in_memory_modules(files, name), settings=settings, project=ProjectFacts()
        ).callers
        if why is not None
    ]
    return ProjectFacts(schema_kept_by=tuple(left))


def _fix_all(files: dict[str, bytes], settings: RuleSettings = DEPENDENCY):
    outputs, remaining = {}, []
    project = _project(files, settings)
    for name, source in files.items():
        # Other files of the case are the project's modules (base classes read by the rewire).
        analysis = analyze_source(
            source, path=name, modules=in_memory_modules(files, name), settings=settings, project=project
        )
        if not analysis.deleted:  # (a file fix removes is absent from expected/)
            outputs[name] = analysis.fixed_source if analysis.fixed_source is not None else source
        remaining.extend(analysis.remaining)
        folder = name.rpartition("/")[0]
        for relative, content in analysis.companions.items():
            outputs[f"{folder}/{relative}" if folder else relative] = content
    return outputs, remaining


def test_there_are_enough_cases():
    negatives = [c for c in CASES if not (c / "expected").exists()]
    assert len(CASES) >= 30 and len(negatives) >= 10


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden_case(case: Path):
    inputs = _files(case / "input")
    settings = _settings(case)
    expected = _expected(case / "expected", settings) if (case / "expected").exists() else inputs

    outputs, remaining = _fix_all(inputs, settings)
    assert outputs == expected

    expected_remaining = _listing(case / "findings.txt")
    if expected_remaining is not None:
        assert [f"{f.path}:{f.line}: {f.code}" for f in remaining] == expected_remaining

    expected_check = _listing(case / "check.txt")
    if expected_check is not None:
        reported = [
            f"{f.path}:{f.line}: {f.code}"
            for name, source in inputs.items()
            for f in analyze_source(
                source, path=name, fix=False, modules=in_memory_modules(inputs, name), settings=settings
            ).findings
        ]
        assert reported == expected_check

    for name, source in outputs.items():
        if name.endswith(".py"):
            # The output is valid Python: to CPython when it reads the input (a case may use
            # syntax newer than the Python running the tests), else to LibCST.
            try:
                ast.parse(inputs.get(name, source))
            except SyntaxError:
                libcst.parse_module(source)
            else:
                ast.parse(source)

    # Idempotence: fixing the output changes nothing, and nothing fixable is left.
    again, _ = _fix_all(outputs, settings)
    assert again == outputs
    project = _project(outputs, settings)
    for name, source in outputs.items():
        fixable = [f for f in analyze_source(source, path=name, settings=settings, project=project).findings if f.fixable]
        assert fixable == []


STYLED = [c for c in CASES if (c / "input" / "pyproject.toml").exists() and (c / "expected").exists()]
RUFF = Path(sys.executable).parent / "ruff"


@pytest.mark.parametrize("case", STYLED, ids=[c.name for c in STYLED])
def test_what_fix_writes_follows_the_projects_style(case: Path, tmp_path: Path):
    """The files fix changes or adds pass the project's own formatter and line length
    (ruff, under the case's pyproject.toml) whenever the input did."""
    inputs = _files(case / "input")
    outputs, _ = _fix_all(inputs, _settings(case))
    for name, data in {**inputs, **outputs}.items():
        (tmp_path / "before" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "after" / name).parent.mkdir(parents=True, exist_ok=True)
        if name in inputs:
            (tmp_path / "before" / name).write_bytes(inputs[name])
        (tmp_path / "after" / name).write_bytes(data)
    changed = [n for n, data in outputs.items() if n.endswith(".py") and inputs.get(n) != data]
    assert changed
    for name in changed:
        for args in (["format", "--check"], ["check", "--select", "E501,W291,W293,I001"]):

            def ruff(folder: str) -> int:
                run = subprocess.run([str(RUFF), *args, "--no-cache", name], cwd=tmp_path / folder, capture_output=True)
                return run.returncode

            if name in inputs and ruff("before") != 0:
                continue  # the input was not clean to begin with
            assert ruff("after") == 0, (name, args)
