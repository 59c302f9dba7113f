"""Which files are test files, and which of their definitions are tests.

- a *test file*: its path matches `RuleSettings.test_files` (`is_test_path`);
- a *test*: a module-level `def test*` (or `async def`), or a `test*` method of a
  test class (`class Test*`, or one whose base is a `...TestCase`); fixtures are not.
"""

from __future__ import annotations

import fnmatch
import functools
import re

import libcst as cst

from acp_migrate.cst.names import ImportTable, last_part


@functools.lru_cache(maxsize=64)
def _compiled(patterns: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[re.Pattern[str], ...]]:
    from acp_migrate.globs import glob_regex

    names: list[str] = []
    paths: list[re.Pattern[str]] = []
    for raw in patterns:
        pattern = raw.strip().removeprefix("./").rstrip("/")
        if "/" in pattern:
            paths.append(glob_regex(pattern.lstrip("/")))
        elif pattern:
            names.append(pattern)
    return tuple(names), tuple(paths)


def is_test_path(path: str | None, patterns: tuple[str, ...]) -> bool:
    """`path` (as the run names it) matches one of the `test-files` globs: a glob
    without `/` matches the file's name or a folder's (`test_*.py`, `tests`); one with
    `/` matches the path's last parts (`tests/**`: anything below a folder `tests`)."""
    if not path:
        return False
    parts = [part for part in re.split(r"[\\/]+", path) if part not in ("", ".", "..")]
    names, globs = _compiled(patterns)
    if any(fnmatch.fnmatchcase(part, name) for part in parts for name in names):
        return True
    tails = ["/".join(parts[index:]) for index in range(len(parts))]
    return any(regex.fullmatch(tail) for regex in globs for tail in tails)


# -- plans ---------------------------------------------------------------------------------


def is_test(function: cst.FunctionDef, imports: ImportTable) -> bool:
    return function.name.value.startswith("test") and not is_fixture(function, imports)


def is_fixture(function: cst.FunctionDef, imports: ImportTable) -> bool:
    for decorator in function.decorators:
        target = decorator.decorator
        if isinstance(target, cst.Call):
            target = target.func
        if last_part(imports.resolve(target)) in ("fixture", "yield_fixture"):
            return True
    return False


def is_test_class(node: cst.ClassDef, imports: ImportTable) -> bool:
    if node.name.value.startswith("Test"):
        return True
    return any((last_part(imports.resolve(base.value)) or "").endswith("TestCase") for base in node.bases)
