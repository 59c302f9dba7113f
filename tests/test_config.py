"""`[tool.acp-migrate]`: discovery, validation, merging with flags; include/exclude globs and
`.gitignore` in discovery."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from acp_migrate.config import ConfigError, Overrides, find_config_file, known_codes, load_options, resolve_selection
from acp_migrate.engine.execution.discover import DiscoveryOptions, discover
from acp_migrate.settings import RuleSettings

GIT_ENV = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


def write(path: Path, content: str = "x = 1\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    return path


def names(paths: list[str], root: Path) -> list[str]:
    return [Path(p).relative_to(root).as_posix() for p in paths]


# --- finding the file ---------------------------------------------------------------------


def test_the_nearest_pyproject_with_the_section_wins(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.acp-migrate]\nignore = ['ACP006']\n")
    write(tmp_path / "pkg/pyproject.toml", "[project]\nname = 'pkg'\n")  # no section: skipped
    write(tmp_path / "pkg/src/a.py")

    assert find_config_file([tmp_path / "pkg/src/a.py"]) == tmp_path / "pyproject.toml"
    assert load_options([tmp_path / "pkg/src"]).settings.ignore == ("ACP006",)


def test_no_file_means_defaults(tmp_path: Path) -> None:
    options = load_options([tmp_path])

    assert options.config_file is None
    assert options.settings.select == () and options.settings.runtime_import == "vendored"
    assert options.discovery.respect_gitignore is True


def test_every_key_is_read(tmp_path: Path) -> None:
    config = write(
        tmp_path / "pyproject.toml",
        "[tool.acp-migrate]\n"
        "include = ['*.py']\n"
        "exclude = ['legacy']\n"
        "extend-exclude = ['gen/*.py']\n"
        "select = ['ACP001', 'ACP004']\n"
        "ignore = ['ACP004']\n"
        "runtime-import = 'myproj.vendor.acp_shim'\n"
        "respect-gitignore = false\n"
        "force-exclude = true\n"
        "test-files = ['checks/**']\n",
    )

    options = load_options([tmp_path])

    assert options.config_file == str(config)
    assert options.settings.select == ("ACP001", "ACP004") and options.settings.ignore == ("ACP004",)
    assert options.settings.runtime_import == "myproj.vendor.acp_shim"
    assert options.settings.test_files == ("checks/**",)
    assert options.discovery.include == ("*.py",)
    assert options.discovery.exclude == ("legacy",)
    assert options.discovery.extend_exclude == ("gen/*.py",)
    assert options.discovery.root == str(tmp_path)
    assert (options.discovery.respect_gitignore, options.discovery.force_exclude) == (False, True)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("colour = true", "unknown key 'colour'"),
        ("runtime_import = 'x'", "unknown key 'runtime_import' (did you mean 'runtime-import'?)"),
        ("select = 'ACP001'", "'select': Input should be a valid list"),
        ("ignore = ['ACP999']", "'ignore': unknown rule code 'ACP999'"),
        ("runtime-import = 'not a module'", "'runtime-import': 'not a module' is not a dotted module name"),
        ("test-files = 'tests/**'", "'test-files': Input should be a valid list"),
        ("exclude = ['  ']", "'exclude': a glob cannot be empty"),
        ("include = [1]", "'include': Input should be a valid string"),
        ("respect-gitignore = 'yes'", "'respect-gitignore': Input should be a valid boolean"),
    ],
)
def test_a_bad_key_or_value_is_an_error_naming_the_key_and_the_file(tmp_path: Path, body: str, expected: str) -> None:
    config = write(tmp_path / "pyproject.toml", f"[tool.acp-migrate]\n{body}\n")

    with pytest.raises(ConfigError) as error:
        load_options([tmp_path])

    assert str(config) in str(error.value)
    assert expected in str(error.value)


def test_every_problem_of_a_file_is_reported_at_once(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.acp-migrate]\nselct = ['ACP001']\nforce-exclude = 0\n")

    with pytest.raises(ConfigError) as error:
        load_options([tmp_path])

    lines = str(error.value).splitlines()
    assert len(lines) == 2
    assert "unknown key 'selct' (did you mean 'select'?)" in lines[0]
    assert "'force-exclude': Input should be a valid boolean (got 0)" in lines[1]


def test_overrides_are_validated_and_normalised_naming_the_flag() -> None:
    assert Overrides(select=["acp001"], exclude=["gen"]) == Overrides(select=("ACP001",), exclude=("gen",))
    with pytest.raises(ValueError, match="--force-exclude: Input should be a valid boolean"):
        Overrides(force_exclude=1)
    with pytest.raises(ValueError, match="--runtime-import: 'a b' is not a dotted module name"):
        Overrides(runtime_import="a b")
    with pytest.raises(ValueError, match="unknown option 'selct' \\(did you mean 'select'\\?\\)"):
        Overrides.from_keywords({"selct": ["ACP001"]})


def test_invalid_toml_is_an_error_naming_the_file(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.acp-migrate\nselect = [\n")

    with pytest.raises(ConfigError, match="pyproject.toml: invalid TOML"):
        load_options([tmp_path])


def test_config_option_overrides_discovery_and_reads_plain_toml(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.acp-migrate]\nignore = ['ACP006']\n")
    other = write(tmp_path / "ci/acp-migrate.toml", "select = ['ACP001']\n")

    options = load_options([tmp_path], config=other)

    assert options.config_file == str(other)
    assert (options.settings.select, options.settings.ignore) == (("ACP001",), ())
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_options([tmp_path], config=tmp_path / "missing.toml")


def test_isolated_ignores_the_file(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.acp-migrate]\nignore = ['ACP006']\n")

    assert load_options([tmp_path], isolated=True).settings.ignore == ()


def test_flags_win_over_the_file(tmp_path: Path) -> None:
    write(
        tmp_path / "pyproject.toml",
        "[tool.acp-migrate]\nselect = ['ACP001']\nignore = ['ACP004']\nruntime-import = 'shim'\n"
        "extend-exclude = ['a']\nrespect-gitignore = false\n",
    )

    ignore_more = load_options([tmp_path], overrides=Overrides(ignore=["ACP006"], runtime_import="pkg.shim"))
    select = load_options(
        [tmp_path], overrides=Overrides(select=["ACP004"], extend_exclude=["b"], respect_gitignore=True)
    )

    assert ignore_more.settings.select == ("ACP001",)
    assert ignore_more.settings.ignore == ("ACP004", "ACP006")
    assert ignore_more.settings.runtime_import == "pkg.shim"
    assert select.settings.select == ("ACP004",) and select.settings.ignore == ()
    assert select.settings.enabled("ACP004")
    assert select.discovery.extend_exclude == ("a", "b")
    assert select.discovery.respect_gitignore is True


def test_unknown_codes_on_the_command_line_are_errors() -> None:
    with pytest.raises(ConfigError, match="--select: unknown rule code 'ACP9'"):
        load_options([], isolated=True, overrides=Overrides(select=["ACP9"]))
    with pytest.raises(ValueError, match="--ignore: 'ACP-1' is not a rule code, a prefix of codes or ALL"):
        Overrides(ignore=["ACP-1"])


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ("target-protocol = 1", "target-protocol"),
        ("[tool.acp-migrate.setup-handlers]\nnew = ['new_session']", "setup-handlers"),
    ],
)
def test_a_removed_key_is_an_error_saying_it_had_no_effect(tmp_path: Path, body: str, key: str) -> None:
    config = write(tmp_path / "pyproject.toml", f"[tool.acp-migrate]\n{body}\n")

    with pytest.raises(ConfigError) as error:
        load_options([tmp_path])

    assert str(error.value).startswith(f"{config}: [tool.acp-migrate] '{key}' was removed, it had no effect (")
    assert str(error.value).endswith("): delete it")


def test_a_removed_option_is_unknown_to_the_api() -> None:
    with pytest.raises(ValueError, match="unknown option 'target_protocol'"):
        Overrides.from_keywords({"target_protocol": 1})


# --- reading the files ----------------------------------------------------------------------


def opened_files(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every path this process opens from now until the test ends (audit events, so
    whichever way a file is opened)."""
    opened: list[str] = []
    monkeypatch.setattr(_Recorder, "into", opened)
    return opened


class _Recorder:
    into: list[str] | None = None

    @staticmethod
    def hook(event: str, args: tuple) -> None:
        if event == "open" and _Recorder.into is not None and isinstance(args[0], str):
            _Recorder.into.append(args[0])


sys.addaudithook(_Recorder.hook)  # audit hooks cannot be removed: it records only inside a test


def test_each_configuration_file_is_read_once_per_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "pyproject.toml", "[tool.acp-migrate]\nignore = ['ACP006']\n[tool.ruff]\nline-length = 79\n")
    write(tmp_path / "setup.cfg", "[isort]\nknown_first_party = app\n")
    write(tmp_path / "pkg/pyproject.toml", "[project]\nname = 'acp-migrate-user'\n[tool.black]\nline-length = 99\n")
    write(tmp_path / "pkg/a.py")
    opened = opened_files(monkeypatch)

    options = load_options([tmp_path / "pkg/a.py"])

    assert (options.settings.ignore, options.settings.style.line_length) == (("ACP006",), 79)
    configuration = [Path(p) for p in opened if Path(p).is_relative_to(tmp_path) and Path(p).is_file()]
    assert sorted(configuration) == [
        tmp_path / "pkg/pyproject.toml",
        tmp_path / "pyproject.toml",
        tmp_path / "setup.cfg",
    ]


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda path: path.mkdir(), "is a directory"),
        (lambda path: os.mkfifo(path), "not a regular file"),
        (lambda path: write(path, "select = ['ACP001']\n" + "#" * 1024 * 1024), "too large"),
    ],
    ids=["folder", "fifo", "too-large"],
)
def test_a_config_option_naming_a_file_that_cannot_be_read_is_an_error(
    tmp_path: Path, make: Callable[[Path], object], reason: str
) -> None:
    make(tmp_path / "ci.toml")

    with pytest.raises(ConfigError) as error:
        load_options([tmp_path], config=tmp_path / "ci.toml")

    assert str(error.value).startswith(f"{tmp_path / 'ci.toml'}: cannot read: {reason}")


def test_a_pyproject_that_cannot_be_read_counts_as_absent_and_is_named(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.acp-migrate]\nignore = ['ACP006']\n")
    big = write(tmp_path / "pkg/pyproject.toml", "[tool.acp-migrate]\nselect = ['ACP001']\n" + "#" * 1024 * 1024)
    write(tmp_path / "pkg/a.py")

    options = load_options([tmp_path / "pkg"])

    assert options.config_file == str(tmp_path / "pyproject.toml")
    assert options.settings.ignore == ("ACP006",)
    assert len(options.ignored) == 1 and options.ignored[0].startswith(f"{big}: too large")


# --- prefixes and ALL ------------------------------------------------------------------------

CODES = frozenset({"ACP001", "ACP002", "ACP004", "ACP100"})


@pytest.mark.parametrize(
    ("select", "ignore", "runs"),
    [
        ([], [], {"ACP001", "ACP002", "ACP004", "ACP100"}),
        (["ALL"], [], {"ACP001", "ACP002", "ACP004", "ACP100"}),
        (["ACP"], [], {"ACP001", "ACP002", "ACP004", "ACP100"}),
        (["ACP00"], [], {"ACP001", "ACP002", "ACP004"}),
        (["ACP1"], [], {"ACP100"}),
        (["ACP00"], ["ACP004"], {"ACP001", "ACP002"}),
        (["ALL"], ["ACP00"], {"ACP100"}),
        ([], ["ACP"], set()),
        # The most specific selector wins; a tie goes to ignore.
        (["ACP004"], ["ACP"], {"ACP004"}),
        (["ACP004", "ACP001"], ["ACP00"], {"ACP004", "ACP001"}),
        (["ACP00"], ["ACP00"], set()),
        (["ACP001"], ["ACP001"], set()),
        (["ACP"], ["ALL"], {"ACP001", "ACP002", "ACP004", "ACP100"}),
    ],
)
def test_prefixes_and_all_resolve_by_specificity(select: list[str], ignore: list[str], runs: set[str]) -> None:
    chosen, ignored = resolve_selection(select, ignore, CODES)
    settings = RuleSettings(select=chosen, ignore=ignored)

    assert {code for code in CODES if settings.enabled(code)} == runs


def test_prefixes_work_in_the_file_and_on_the_command_line(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.acp-migrate]\nselect = ['acp00']\nignore = ['ACP004', 'ACP006']\n")

    from_file = load_options([tmp_path]).settings
    flag = load_options([tmp_path], overrides=Overrides(select=["ALL"], ignore=["ACP00"])).settings
    more = load_options([tmp_path], overrides=Overrides(ignore=["ACP1"])).settings

    assert from_file.enabled("ACP001") and from_file.enabled("ACP005")
    assert not from_file.enabled("ACP004") and not from_file.enabled("ACP006") and not from_file.enabled("ACP100")
    # --select replaces the file's select and drops its ignore; --ignore adds to the file's.
    assert [code for code in sorted(known_codes()) if flag.enabled(code) and code < "ACP2"] == ["ACP010", "ACP100"]
    assert all(flag.enabled(code) for code in known_codes() if code >= "ACP2")  # the SDK family
    assert more.enabled("ACP001") and not more.enabled("ACP004") and not more.enabled("ACP100")


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("select = ['ACP9']", "'select': unknown rule code 'ACP9'"),
        ("ignore = ['AC P']", "'ignore': 'AC P' is not a rule code, a prefix of codes or ALL"),
        ("select = ['ALLL']", "'select': unknown rule code 'ALLL'"),
    ],
)
def test_a_selector_that_selects_nothing_is_an_error(tmp_path: Path, body: str, expected: str) -> None:
    config = write(tmp_path / "pyproject.toml", f"[tool.acp-migrate]\n{body}\n")

    with pytest.raises(ConfigError) as error:
        load_options([tmp_path])

    assert str(error.value).startswith(f"{config}: [tool.acp-migrate] ") and expected in str(error.value)


def test_every_problem_of_the_file_and_the_flags_is_reported_at_once(tmp_path: Path) -> None:
    config = write(
        tmp_path / "pyproject.toml",
        "[tool.acp-migrate]\nselect = ['ACP9', 'ACP001', 'ACP8']\nignore = ['x-1', 'y-2']\n"
        "respect-gitignore = 'yes'\ncolour = true\n",
    )

    with pytest.raises(ConfigError) as error:
        load_options([tmp_path], overrides=Overrides(select=["ACP7"]))

    lines = str(error.value).splitlines()
    assert lines[0].startswith("--select: unknown rule code 'ACP7'")
    assert all(line.startswith(f"{config}: [tool.acp-migrate] ") for line in lines[1:])
    assert [line.split("] ", 1)[1].split(" (")[0] for line in lines[1:]] == [
        "'ignore': 'x-1' is not a rule code, a prefix of codes or ALL",
        "'respect-gitignore': Input should be a valid boolean",
        "unknown key 'colour'",
        "'select': unknown rule code 'ACP9'",
        "'select': unknown rule code 'ACP8'",
    ]
    assert "'y-2' is not a rule code" in lines[1]  # a list's every bad element


# --- globs ----------------------------------------------------------------------------------


def test_exclude_globs_by_name_and_anchored(tmp_path: Path) -> None:
    for name in ["a.py", "gen/x_pb2.py", "gen/y.py", "docs/rfcs/old.md", "src/docs/rfcs/kept.md", "legacy/z.py"]:
        write(tmp_path / name)
    options = DiscoveryOptions(root=str(tmp_path), extend_exclude=("*_pb2.py", "docs/rfcs", "legacy/"))

    assert names(discover([tmp_path], options).files, tmp_path) == ["a.py", "gen/y.py", "src/docs/rfcs/kept.md"]


def test_double_star_crosses_folders_and_single_star_does_not(tmp_path: Path) -> None:
    for name in ["src/a/old_x.py", "src/a/b/old_y.py", "src/old_z.py", "src/new.py"]:
        write(tmp_path / name)

    deep = DiscoveryOptions(root=str(tmp_path), extend_exclude=("src/**/old_*.py",))
    shallow = DiscoveryOptions(root=str(tmp_path), extend_exclude=("src/*/old_*.py",))

    assert names(discover([tmp_path], deep).files, tmp_path) == ["src/new.py"]
    assert names(discover([tmp_path], shallow).files, tmp_path) == ["src/a/b/old_y.py", "src/new.py", "src/old_z.py"]


def test_include_limits_what_a_walk_picks_up(tmp_path: Path) -> None:
    for name in ["a.py", "b.pyi", "README.md", "tools/c.py", "notes.txt"]:
        write(tmp_path / name)

    options = DiscoveryOptions(root=str(tmp_path), include=("*.py", "*.txt"))
    anchored = DiscoveryOptions(root=str(tmp_path), include=("tools/*.py",))

    assert names(discover([tmp_path], options).files, tmp_path) == ["a.py", "notes.txt", "tools/c.py"]
    assert names(discover([tmp_path], anchored).files, tmp_path) == ["tools/c.py"]


def test_exclude_replaces_the_default_list(tmp_path: Path) -> None:
    write(tmp_path / "node_modules/pkg/a.py")
    write(tmp_path / "legacy/b.py")
    write(tmp_path / ".venv/pyvenv.cfg", "home = /usr\n")
    write(tmp_path / ".venv/lib/c.py")

    options = DiscoveryOptions(root=str(tmp_path), exclude=("legacy",))

    # Virtualenvs are always skipped; node_modules only while in the list.
    assert names(discover([tmp_path], options).files, tmp_path) == ["node_modules/pkg/a.py"]


def test_explicit_paths_are_analysed_unless_force_exclude(tmp_path: Path) -> None:
    write(tmp_path / "legacy/a.py")
    options = DiscoveryOptions(root=str(tmp_path), extend_exclude=("legacy",))
    forced = replace(options, force_exclude=True)

    assert names(discover([tmp_path / "legacy/a.py"], options).files, tmp_path) == ["legacy/a.py"]
    assert names(discover([tmp_path / "legacy"], options).files, tmp_path) == ["legacy/a.py"]
    assert discover([tmp_path / "legacy/a.py"], forced).files == []
    assert discover([tmp_path / "legacy"], forced).files == []


# --- .gitignore -----------------------------------------------------------------------------


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.fail("git is needed for these tests")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, env=GIT_ENV)
    write(tmp_path / ".gitignore", "generated/\n*_gen.py\n")
    for name in ["src/a.py", "src/b_gen.py", "generated/c.py", "sub/generated/d.py"]:
        write(tmp_path / name)
    return tmp_path


def test_gitignored_files_are_skipped_in_a_work_tree(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)

    assert names(discover([repo]).files, repo) == ["src/a.py"]
    assert names(discover([repo], DiscoveryOptions(respect_gitignore=False)).files, repo) == [
        "generated/c.py",
        "src/a.py",
        "src/b_gen.py",
        "sub/generated/d.py",
    ]


def test_gitignore_applies_to_a_work_tree_reached_through_a_symlink(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Folders are resolved once each, from their parent's resolved path: the link must
    # still be followed to the work tree git answers about.
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    link = tmp_path_factory.mktemp("elsewhere") / "checkout"
    link.symlink_to(repo, target_is_directory=True)

    assert names(discover([link]).files, link) == ["src/a.py"]
    assert names(discover([link / "sub"]).files, link) == []
    forced = DiscoveryOptions(force_exclude=True)
    assert discover([link / "generated" / "c.py"], forced).files == []


def test_explicit_gitignored_files_count_unless_force_exclude(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    target = repo / "src/b_gen.py"

    assert names(discover([target]).files, repo) == ["src/b_gen.py"]
    assert discover([target], DiscoveryOptions(force_exclude=True)).files == []


def test_tracked_files_are_not_ignored(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    subprocess.run(["git", "add", "-f", "src/b_gen.py"], cwd=repo, check=True, env=GIT_ENV)

    assert names(discover([repo]).files, repo) == ["src/a.py", "src/b_gen.py"]


def test_a_repository_inside_the_walk_answers_for_its_own_files(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The work tree holding a folder decides what is ignored there: a nested
    repository's own ignore file, not the one around it (the walk learns of its `.git`
    from its listing)."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    inner = repo / "vendor" / "inner"
    inner.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(inner)], check=True, env=GIT_ENV)
    write(inner / ".gitignore", "local.py\n")
    for name in ["x.py", "local.py", "y_gen.py", "deep/z.py", "deep/local.py"]:
        write(inner / name)

    assert names(discover([repo]).files, repo) == [
        "src/a.py",
        "vendor/inner/deep/z.py",
        "vendor/inner/x.py",
        "vendor/inner/y_gen.py",
    ]
    assert names(discover([inner / "deep"]).files, repo) == ["vendor/inner/deep/z.py"]
