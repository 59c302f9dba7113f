"""The bundled example's own legacy tests, run with pytest before and after `fix`.

examples/legacy_agent/tests/ is the legacy suite in AgentPool's style: a schema test
class of the `slash_commands` field, an initialize-time commands test, and tests that
assert other things too. Before `fix` every test passes; `fix` removes the tests of
the removed behaviour whole (the class with them), only the statements about the field
of the others, adds the backward-compatibility test once (the example owns its
schema and the run covers it), and names every removal in its output; after it, every
test left passes. The quick start's `diff`, from this repository's root, is the same whole
migration (the repository's configuration excludes its own legacy code): applied, it
leaves every test of the example passing too.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.command import run_acp_migrate
from support.git import git

pytestmark = pytest.mark.slow  # the command and the example's own test suite, in processes

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "legacy_agent"
PASSED = re.compile(r"^(tests/\S+\.py::\S+) PASSED", re.MULTILINE)
COMPAT = "tests/test_capabilities.py::test_old_json_with_slash_commands_still_validates"

BEFORE = {
    "tests/test_capabilities.py::TestAgentCapabilitiesSlashCommands::test_default_empty_list",
    "tests/test_capabilities.py::TestAgentCapabilitiesSlashCommands::test_accepts_list_of_commands",
    "tests/test_capabilities.py::TestAgentCapabilitiesSlashCommands::test_serializes_as_camel_case",
    "tests/test_capabilities.py::test_create_sets_session_capabilities",
    "tests/test_initialize.py::test_initialize_exposes_skill_commands",
    "tests/test_initialize.py::test_initialize_describes_the_agent",
}
REMOVED = {
    "tests/test_capabilities.py::TestAgentCapabilitiesSlashCommands::test_default_empty_list",
    "tests/test_capabilities.py::TestAgentCapabilitiesSlashCommands::test_accepts_list_of_commands",
    "tests/test_capabilities.py::TestAgentCapabilitiesSlashCommands::test_serializes_as_camel_case",
    "tests/test_initialize.py::test_initialize_exposes_skill_commands",
}


def _pytest(folder: Path) -> tuple[int, set[str], str]:
    """Run the folder's tests in a process of their own: (exit code, tests passed, output)."""
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v", "tests"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = result.stdout + result.stderr
    return result.returncode, set(PASSED.findall(result.stdout)), output


def _acp_migrate(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_acp_migrate(*args, cwd=folder, text=True)


def _tests(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text() for p in sorted((folder / "tests").glob("*.py"))}


def test_the_example_tests_pass_before_and_after_fix_and_the_removed_ones_are_named(tmp_path: Path) -> None:
    copy = tmp_path / "legacy_agent"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("__pycache__"))

    code, passed, output = _pytest(copy)
    assert code == 0, output
    assert passed == BEFORE, output

    fixed = _acp_migrate(copy, "fix", ".")
    # Nothing is left to do (exit 0), and the removed tests are named so that the
    # diff's reviewer sees them.
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "listed above for review" in fixed.stdout
    lines = fixed.stdout.splitlines()
    for node_id in REMOVED:
        path, name = node_id.split("::", 1)
        assert any(line.startswith(f"{path}:") and f"ACP008 removed test `{name}`" in line for line in lines), (
            node_id,
            fixed.stdout,
        )
    assert any("ACP008 removed test class `TestAgentCapabilitiesSlashCommands`" in line for line in lines)
    assert any(
        line.startswith("tests/test_initialize.py:") and "test `test_initialize_describes_the_agent`: removed its" in line
        for line in lines
    ), fixed.stdout
    assert {line.split()[1] for line in lines if line.startswith("tests/")} == {"ACP008"}

    code, passed, output = _pytest(copy)
    assert code == 0, output
    assert passed == (BEFORE - REMOVED) | {COMPAT}, output

    # Never a half-edited test, never a TODO in one: no read of the field is left, only
    # the absence assertion of the backward-compatibility test.
    tests = _tests(copy)
    compat = []
    for path, text in tests.items():
        assert "acp-migrate: TODO" not in text, path
        for node in ast.parse(text).body:
            segment = ast.get_source_segment(text, node) or ""
            if isinstance(node, ast.FunctionDef) and node.name == "test_old_json_with_slash_commands_still_validates":
                compat.append(segment)
            else:
                assert "slash_commands" not in segment and "slashCommands" not in segment, (path, segment)
    [compat_test] = compat
    assert 'assert not hasattr(caps, "slash_commands")' in compat_test

    # Once: a second fix finds nothing to do (no second compatibility test), check is clean.
    again = _acp_migrate(copy, "fix", ".")
    assert again.returncode == 0, again.stdout + again.stderr
    assert _tests(copy) == tests
    check = _acp_migrate(copy, "check", ".")
    assert check.returncode == 0, check.stdout


def test_the_quick_starts_diff_applied_in_this_repository_is_the_whole_migration(tmp_path: Path) -> None:
    """README's quick start runs `acp-migrate diff examples/legacy_agent` from this
    repository's root, whose configuration excludes the repository's own legacy code
    (golden/ inputs, tests, the AgentPool example): nothing else passes the field, so the
    example's schema loses it and the compatibility test comes in, as in a copy alone."""
    repo = tmp_path / "repo"
    shutil.copytree(
        EXAMPLE.parents[1],
        repo,
        ignore=shutil.ignore_patterns(".git", ".venv*", "__pycache__", ".pytest_cache", "*.egg-info", "build", "dist"),
    )
    assert git(repo, "init", "-q", ".").returncode == 0
    assert git(repo, "add", "-A").returncode == 0
    assert git(repo, "commit", "-q", "-m", "copy").returncode == 0

    diff = _acp_migrate(repo, "diff", "examples/legacy_agent")
    assert diff.returncode == 1, diff.stdout + diff.stderr  # changes shown
    patch = tmp_path / "quick-start.diff"
    patch.write_text(diff.stdout)
    applied = git(repo, "apply", str(patch))
    assert applied.returncode == 0, applied.stderr

    example = repo / "examples" / "legacy_agent"
    assert "slash_commands" not in (example / "schema.py").read_text()  # no caller is left
    assert "+++ b/examples/legacy_agent/acp_command_advertiser.py" in diff.stdout
    # The repository's own pytest configuration (xdist) is not the example's.
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-o", "addopts=", "-p", "no:cacheprovider", "-v", "--rootdir", ".", "tests"],
        cwd=example,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert set(PASSED.findall(result.stdout)) == (BEFORE - REMOVED) | {COMPAT}, output
