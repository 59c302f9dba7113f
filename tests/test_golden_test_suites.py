"""The golden cases' own tests, run with pytest before and after `fix` (issue 23's proof).

A case that owns what its tests import (its schema, its fixtures) runs as it is. Its
tests pass before `fix`; after it the same tests pass, minus those fix removed by
design, each named by an ACP008 finding ("removed test `...`"), and nothing errors
(a module that no longer collects takes unrelated tests with it).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_golden import GOLDEN, _files, _fix_all, _settings

pytestmark = pytest.mark.slow  # pytest in processes of its own, twice a case

SUITES = [
    "tests-compat-test-owned-schema",
    "tests-field-kept-no-compat-test",
    "tests-hypothesis-json-round-trip",
    "tests-readers-keep-the-field",
    "tests-schema-class-removed-with-compat-test",
]
PASSED = re.compile(r"^tests/\S+?\.py::(\S+) PASSED", re.MULTILINE)
REMOVED = re.compile(r"removed test `([^`]+)`")


def _pytest(folder: Path) -> tuple[int, set[str], str]:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-v", "tests"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return result.returncode, set(PASSED.findall(result.stdout)), result.stdout + result.stderr


def _write(files: dict[str, bytes], root: Path) -> None:
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)


@pytest.mark.parametrize("case", SUITES)
def test_the_same_tests_pass_after_fix(case: str, tmp_path: Path):
    inputs = _files(GOLDEN / case / "input")
    outputs, remaining = _fix_all(inputs, _settings(GOLDEN / case))
    assert outputs != inputs, "fix changes nothing: the case proves nothing here"
    before, after = tmp_path / "before", tmp_path / "after"
    _write(inputs, before)
    _write(outputs, after)
    code, passed_before, output = _pytest(before)
    assert code == 0, f"the legacy tests fail before fix:\n{output}"
    code, passed_after, output = _pytest(after)
    assert code == 0, f"the tests fail after fix:\n{output}"

    removed_by_design = {m for f in remaining if f.code == "ACP008" for m in REMOVED.findall(f.message)}
    gone = passed_before - passed_after
    assert gone <= removed_by_design, f"tests lost that no finding names: {sorted(gone - removed_by_design)}"
    assert passed_before - removed_by_design <= passed_after
    shutil.rmtree(tmp_path, ignore_errors=True)
