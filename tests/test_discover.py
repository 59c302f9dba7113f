"""PATH arguments → the files to analyse."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from support.privileges import permissions_enforced, world_readable_dir

from acp_migrate.engine.execution.discover import discover, under


def touch(path: Path, content: str = "x = 1\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    return path


def names(paths: list[str], root: Path) -> list[str]:
    return [Path(p).relative_to(root).as_posix() for p in paths]


def test_directory_is_walked_for_the_rules_suffixes_in_sorted_order(tmp_path: Path) -> None:
    for name in ["b.py", "a.pyi", "pkg/z.py", "pkg/sub/y.py", "notes.txt", "setup.cfg", "pkg/data.json", "pkg/d.csv"]:
        touch(tmp_path / name)

    result = discover([tmp_path])

    # .json: the census (ACP011) reads it
    assert names(result.files, tmp_path) == ["a.pyi", "b.py", "pkg/data.json", "pkg/sub/y.py", "pkg/z.py"]
    assert result.errors == []
    assert all(os.path.isabs(p) for p in result.files)


@pytest.mark.parametrize(
    "skipped",
    [
        ".git",
        ".hg",
        ".svn",
        ".venv",
        "__pycache__",
        "node_modules",
        "build",
        "dist",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        "acp_migrate.egg-info",
        "deep/node_modules",
    ],
)
def test_tool_and_vcs_directories_are_skipped(tmp_path: Path, skipped: str) -> None:
    touch(tmp_path / "keep.py")
    touch(tmp_path / skipped / "hidden.py")

    assert names(discover([tmp_path]).files, tmp_path) == ["keep.py"]


@pytest.mark.parametrize("venv_name", ["venv", "env", "myenv", ".env311"])
def test_any_directory_with_pyvenv_cfg_is_skipped(tmp_path: Path, venv_name: str) -> None:
    touch(tmp_path / "keep.py")
    touch(tmp_path / venv_name / "pyvenv.cfg", "home = /usr/bin\n")
    touch(tmp_path / venv_name / "lib/python3.11/site-packages/dep.py")

    assert names(discover([tmp_path]).files, tmp_path) == ["keep.py"]


def test_build_and_dist_packages_are_walked(tmp_path: Path) -> None:
    touch(tmp_path / "build/lib/pkg/a.py")
    touch(tmp_path / "pkg/operations/build/__init__.py")
    touch(tmp_path / "pkg/operations/build/wheel.py")
    touch(tmp_path / "dist/__init__.py")

    assert names(discover([tmp_path]).files, tmp_path) == [
        "dist/__init__.py",
        "pkg/operations/build/__init__.py",
        "pkg/operations/build/wheel.py",
    ]


def test_package_named_env_without_pyvenv_cfg_is_walked(tmp_path: Path) -> None:
    touch(tmp_path / "env/settings.py")
    touch(tmp_path / "venv/tool.py")

    assert names(discover([tmp_path]).files, tmp_path) == ["env/settings.py", "venv/tool.py"]


def test_explicit_files_are_included_whatever_their_extension_or_folder(tmp_path: Path) -> None:
    script = touch(tmp_path / "bin/agent")
    built = touch(tmp_path / "build/generated.py")

    result = discover([script, built])

    assert names(result.files, tmp_path) == ["bin/agent", "build/generated.py"]


def test_explicit_directory_with_a_skipped_name_is_still_walked(tmp_path: Path) -> None:
    touch(tmp_path / "build/gen.py")
    touch(tmp_path / "build/__pycache__/gen.py")

    assert names(discover([tmp_path / "build"]).files, tmp_path) == ["build/gen.py"]


def test_missing_paths_are_reported_each_and_the_rest_is_still_found(tmp_path: Path) -> None:
    touch(tmp_path / "a.py")

    result = discover([tmp_path / "missing.py", tmp_path / "a.py", tmp_path / "gone"])

    assert names(result.files, tmp_path) == ["a.py"]
    assert [(Path(e.path).name, e.reason) for e in result.errors] == [
        ("gone", "no such file or directory"),
        ("missing.py", "no such file or directory"),
    ]


def test_path_below_a_file_is_reported(tmp_path: Path) -> None:
    touch(tmp_path / "a.py")

    result = discover([tmp_path / "a.py" / "b.py"])

    assert result.files == []
    assert [e.reason for e in result.errors] == ["not a directory"]


def test_no_path_means_the_current_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    touch(tmp_path / "a.py")
    touch(tmp_path / "pkg/b.py")
    monkeypatch.chdir(tmp_path)

    assert names(discover().files, tmp_path) == ["a.py", "pkg/b.py"]
    assert names(discover([]).files, tmp_path) == ["a.py", "pkg/b.py"]


def test_a_file_reached_several_ways_is_listed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    touch(tmp_path / "pkg/a.py")
    monkeypatch.chdir(tmp_path)

    result = discover(["pkg", "pkg/a.py", "./pkg/a.py", str(tmp_path / "pkg"), "pkg/../pkg/a.py"])

    assert names(result.files, tmp_path) == ["pkg/a.py"]


def test_order_does_not_depend_on_argument_order(tmp_path: Path) -> None:
    for name in ["c.py", "a/b.py", "a.py", "a-b/c.py", "A.py"]:
        touch(tmp_path / name)
    arguments = [tmp_path / "c.py", tmp_path / "a", tmp_path / "a.py", tmp_path / "a-b", tmp_path / "A.py"]

    assert discover(arguments).files == discover(list(reversed(arguments))).files
    assert discover(arguments).files == sorted(discover(arguments).files)


def test_symlinked_directories_inside_a_walk_are_not_followed(tmp_path: Path) -> None:
    touch(tmp_path / "outside/elsewhere.py")
    touch(tmp_path / "project/a.py")
    (tmp_path / "project/link").symlink_to(tmp_path / "outside", target_is_directory=True)

    assert names(discover([tmp_path / "project"]).files, tmp_path) == ["project/a.py"]


def test_symlink_loops_terminate(tmp_path: Path) -> None:
    touch(tmp_path / "a.py")
    (tmp_path / "loop").symlink_to(tmp_path, target_is_directory=True)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub/back").symlink_to(tmp_path / "sub", target_is_directory=True)

    result = discover([tmp_path])

    assert names(result.files, tmp_path) == ["a.py"]
    assert result.errors == []


def test_symlinked_files_inside_a_walk_are_skipped_but_explicit_ones_are_kept(tmp_path: Path) -> None:
    real = touch(tmp_path / "outside/real.py")
    touch(tmp_path / "project/a.py")
    (tmp_path / "project/alias.py").symlink_to(real)

    assert names(discover([tmp_path / "project"]).files, tmp_path) == ["project/a.py"]
    assert names(discover([tmp_path / "project/alias.py"]).files, tmp_path) == ["project/alias.py"]


def test_explicit_symlink_and_its_target_are_one_file(tmp_path: Path) -> None:
    real = touch(tmp_path / "real.py")
    (tmp_path / "alias.py").symlink_to(real)

    assert names(discover([tmp_path / "real.py", tmp_path / "alias.py"]).files, tmp_path) == ["alias.py"]


def test_explicit_broken_symlink_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "dangling.py").symlink_to(tmp_path / "nowhere.py")

    result = discover([tmp_path / "dangling.py"])

    assert result.files == []
    assert [e.reason for e in result.errors] == ["broken symbolic link"]


def test_unreadable_directory_is_reported_not_silently_skipped() -> None:
    with world_readable_dir() as tmp_path:
        touch(tmp_path / "a.py")
        locked = tmp_path / "locked"
        touch(locked / "b.py")
        locked.chmod(0)
        try:
            with permissions_enforced():
                result = discover([tmp_path])
        finally:
            locked.chmod(0o755)

    assert names(result.files, tmp_path) == ["a.py"]
    assert [(Path(e.path).name, e.reason) for e in result.errors] == [("locked", "permission denied")]


@pytest.mark.parametrize(
    "path,base,expected",
    [
        ("/a/b/c.py", "/a", "b/c.py"),
        ("/a/b/c.py", "/a/", "b/c.py"),
        ("/a/b..c/d.py", "/a", "b..c/d.py"),  # dots in a name are not a parent folder
        ("/a/../x.py", "/a", None),  # spelled below /a, but is not
        ("/a/b/../../x.py", "/a", None),
        ("/ab/c.py", "/a", None),
        ("/a", "/a", None),
    ],
)
def test_under_takes_only_paths_spelled_below_the_base(path: str, base: str, expected: str | None) -> None:
    def native(spelling: str) -> str:
        return spelling.replace("/", os.sep)

    assert under(native(path), native(base)) == (None if expected is None else native(expected))


# -- globs in linear time (issue 24) ---------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("docs/**/*.md", "docs/a.md", True),
        ("docs/**/*.md", "docs/a/b/c.md", True),
        ("docs/**/*.md", "docsx/a.md", False),
        ("src/**", "src/a/b.py", True),
        ("**/gen_*.py", "gen_x.py", True),
        ("**/gen_*.py", "a/b/gen_x.py", True),
        ("**/gen_*.py", "a/gen/x.py", False),
        ("a/*/c", "a/b/c", True),
        ("a/*/c", "a/b/x/c", False),
        ("a/?/c", "a/bb/c", False),
        ("a/[!x]/c", "a/y/c", True),
        ("a/[!x]/c", "a///c", False),  # a class stays within one folder
        ("**/**/**/x.py", "a/b/x.py", True),
        ("**/" * 25 + "x.py", "a/" * 60 + "y.py", False),
        ("*a" * 25 + "/b", "a" * 200 + "/c", False),
    ],
)
def test_anchored_globs(pattern: str, path: str, expected: bool) -> None:
    from acp_migrate.globs import glob_regex

    assert glob_regex(pattern).fullmatch(path) is expected


def test_the_linear_matcher_agrees_with_the_regex_it_replaces() -> None:
    """Patterns with few stars are matched by a regex (fast), others by the state set
    (linear): on every pattern both must answer alike."""
    import random

    from acp_migrate import globs

    rng = random.Random(24)
    pieces = ["a", "b", "/", "*", "**", "**/", "?", "[ab]", "[!a]"]
    for _ in range(5000):
        pattern = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 6)))
        path = "".join(rng.choice("ab/") for _ in range(rng.randint(0, 8)))
        glob = globs.Glob(pattern)
        by_regex = globs._regex(glob._tokens).fullmatch(path) is not None
        glob._regex = None
        assert glob.fullmatch(path) is by_regex, (pattern, path)
