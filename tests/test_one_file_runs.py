"""A one-file `fix` (what the pre-commit hook runs on a staged file) breaks no test of
the project: on a copy of the bundled example, after `fix <file>` for each of its
files, the example's tests pass, or fix exits 1 naming exactly the test files that fail.

`fix agent.py` is the run that matters: it moves the commands out of `initialize`,
which tests/test_initialize.py asserts; the run names it (engine/execution/project.py),
and so does the next run of the migrated agent alone (pre-commit on the staged file).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from support.command import run_acp_migrate
from test_golden_test_suites import _pytest

pytestmark = pytest.mark.slow  # the example's test suite, in processes

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "legacy_agent"
FILES = sorted(
    p.relative_to(EXAMPLE).as_posix() for p in EXAMPLE.rglob("*") if p.is_file() and "__pycache__" not in p.parts
)
FAILED = re.compile(r"^(tests/[^:\s]+\.py)::\S+ (?:FAILED|ERROR)", re.MULTILINE)
NAMED = re.compile(r"^(tests/[^:\s]+\.py):\d+:\d+: ACP\d+ not in this run, though it asserts what ", re.MULTILINE)


def _failing_test_files(folder: Path) -> set[str]:
    code, _, output = _pytest(folder)
    failing = set(FAILED.findall(output))
    assert (code == 0) == (not failing), output
    return failing


def test_the_example_has_the_files_and_tests_this_proof_runs():
    assert {"agent.py", "schema.py", "tests/test_initialize.py", "tests/test_capabilities.py"} <= set(FILES)


@pytest.mark.parametrize("name", FILES)
def test_a_one_file_fix_keeps_the_tests_or_names_those_it_breaks(tmp_path: Path, name: str):
    copy = tmp_path / "legacy_agent"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert _failing_test_files(copy) == set()

    fixed = run_acp_migrate("fix", name, cwd=copy, text=True)

    output = fixed.stdout + fixed.stderr
    assert fixed.returncode in (0, 1), output
    failing = _failing_test_files(copy)
    named = set(NAMED.findall(fixed.stdout))
    assert named == failing, output  # every test it breaks, and only those
    if failing:
        assert fixed.returncode == 1, output
    if name == "agent.py":  # the run that changes what the tests assert
        assert "tests/test_initialize.py" in failing, output
        # pre-commit again on the staged, migrated agent: the tests are still named.
        again = run_acp_migrate("fix", name, cwd=copy, text=True)
        assert again.returncode == 1 and set(NAMED.findall(again.stdout)) == named, again.stdout + again.stderr
