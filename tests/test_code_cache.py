"""engine/code_cache.py: dataclasses made through the cache are the same classes; a run
compiles only what the file lacks; a bad or foreign file, or an unwritable folder,
costs time and nothing else. Each case runs in a fresh interpreter, as the command does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from acp_migrate.engine import code_cache

# Makes dataclasses of every kind the command and LibCST use and prints what they do.
PROGRAM = textwrap.dedent(
    """
    import dataclasses, json, sys
    from acp_migrate.engine import code_cache

    if sys.argv[1] == "cached":
        code_cache.install()

    @dataclasses.dataclass(frozen=True, slots=True)
    class Finding:
        path: str
        line: int = 1
        tags: tuple = ()

    @dataclasses.dataclass(order=True)
    class Version:
        major: int
        minor: int = 0

    @dataclasses.dataclass(eq=False)
    class Holder:
        items: dict = dataclasses.field(default_factory=dict)

    finding = Finding("a.py", 3)
    try:
        finding.line = 4
        frozen = False
    except dataclasses.FrozenInstanceError:
        frozen = True
    behaviour = {
        "repr": [repr(finding), repr(Version(1)), repr(Holder())],
        "eq": [finding == Finding("a.py", 3), finding == Finding("a.py", 4), Holder() == Holder()],
        "hash": hash(finding) == hash(Finding("a.py", 3)),
        "order": sorted([Version(2), Version(1, 5)]) == [Version(1, 5), Version(2)],
        "frozen": frozen,
        "slots": not hasattr(finding, "__dict__"),
        "factory": Holder().items is not Holder().items,
        "annotations": str(Finding.__init__.__annotations__),
    }
    compiled = len(code_cache._compiled)
    code_cache.save()
    unsaved = len(code_cache._compiled)
    print(json.dumps({"behaviour": behaviour, "compiled": compiled, "unsaved": unsaved}))
    """
)


def run(mode: str, cache_home: Path | str, cwd: Path | None = None, **env: str) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM, mode],
        env={**os.environ, "XDG_CACHE_HOME": str(cache_home), **env},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def cache_file(cache_home: Path) -> Path:
    (path,) = (cache_home / "acp-migrate").glob("dataclass-code.*.marshal")
    return path


def test_classes_made_through_the_cache_behave_as_without_it(tmp_path: Path) -> None:
    plain = run("plain", tmp_path)
    first = run("cached", tmp_path)  # compiles and saves
    second = run("cached", tmp_path)  # from the file
    assert first["behaviour"] == plain["behaviour"] == second["behaviour"]
    assert plain["behaviour"]["frozen"] and plain["behaviour"]["slots"]


def test_a_run_compiles_only_what_the_file_lacks(tmp_path: Path) -> None:
    first = run("cached", tmp_path)
    assert first["compiled"] > 0 and first["unsaved"] == 0
    saved = cache_file(tmp_path).read_bytes()
    assert run("cached", tmp_path)["compiled"] == 0
    assert cache_file(tmp_path).read_bytes() == saved  # nothing new: not rewritten


@pytest.mark.parametrize(
    "content",
    [b"", b"garbage", b"acp-migrate dataclass code 4 0 2.7.18 (other build)\n" + b"\xe3" * 40],
    ids=["empty", "garbage", "another-interpreter"],
)
def test_a_bad_or_foreign_file_is_ignored_and_replaced(tmp_path: Path, content: bytes) -> None:
    run("cached", tmp_path)
    path = cache_file(tmp_path)
    path.write_bytes(content)
    report = run("cached", tmp_path)
    assert report["compiled"] > 0 and report["unsaved"] == 0  # compiled again, saved whole
    assert path.read_bytes() != content
    assert run("cached", tmp_path)["compiled"] == 0


def test_a_file_of_the_wrong_shape_is_ignored(tmp_path: Path) -> None:
    import marshal

    run("cached", tmp_path)
    path = cache_file(tmp_path)
    header = path.read_bytes().split(b"\n", 1)[0] + b"\n"
    path.write_bytes(header + marshal.dumps({"def f(): pass": "not code"}))
    first = run("cached", tmp_path)
    assert first["compiled"] > 0
    assert first["behaviour"] == run("plain", tmp_path)["behaviour"]


def test_a_file_past_its_bound_keeps_what_the_saving_run_used(tmp_path: Path) -> None:
    """Texts no version generates any more (LibCST upgrades) do not pile up: once the
    merged file would pass the bound, a save keeps only what its process used."""
    import marshal

    run("cached", tmp_path)
    path = cache_file(tmp_path)
    header, body = path.read_bytes().split(b"\n", 1)
    used = marshal.loads(body)
    stale = {f"def __create_fn__():\n return {index}": compile(str(index), "<string>", "exec") for index in range(30)}
    path.write_bytes(header + b"\n" + marshal.dumps({**used, **stale}))
    bound = len(used) + 10
    program = PROGRAM.replace("code_cache.install()", f"code_cache.install(); code_cache._MAX_ENTRIES = {bound}")
    # A class the file lacks, so that the run saves.
    program = program.replace("class Holder:", "class Holder2:\n    extra: int = 0\n\n@dataclasses.dataclass(eq=False)\nclass Holder:")
    result = subprocess.run(
        [sys.executable, "-c", program, "cached"],
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["compiled"] > 0
    saved = marshal.loads(path.read_bytes().split(b"\n", 1)[1])
    assert not set(saved) & set(stale)
    assert set(used) < set(saved) and len(saved) <= bound


def test_an_unwritable_cache_folder_costs_nothing_but_time(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would go\n")
    report = run("cached", blocker)
    assert report["compiled"] > 0 and report["unsaved"] == report["compiled"]  # could not save
    assert report["behaviour"] == run("plain", tmp_path)["behaviour"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["not-a-folder"]


def test_a_relative_cache_home_is_not_the_current_folder(tmp_path: Path) -> None:
    """A relative XDG_CACHE_HOME is invalid (XDG): the default under the home folder
    serves instead, and nothing is written where the command runs (a user's project)."""
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    run("cached", "relative-cache", cwd=project, HOME=str(home))
    assert list(project.iterdir()) == []
    assert cache_file(home / ".cache").exists()


def test_the_command_saves_what_importing_libcst_compiled(tmp_path: Path) -> None:
    """The parse server saves LibCST's node classes, the command its own; the run's
    findings are the same with the cache cold and warm."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "agent.py").write_text(
        "from acp.schema import AgentCapabilities\n\nCAPS = AgentCapabilities(load_session=True, slash_commands=[])\n"
    )
    cache_home = tmp_path / "cache"
    executable = Path(sys.executable).parent / "acp-migrate"
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}

    def check() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(executable), "check", "--isolated", "--output-format", "json", "."],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    cold, warm = check(), check()
    assert cold.returncode == warm.returncode == 1
    assert json.loads(cold.stdout) == json.loads(warm.stdout)
    import marshal

    data = cache_file(cache_home).read_bytes()
    texts = marshal.loads(data.split(b"\n", 1)[1])
    # LibCST's nodes (saved by the parse server, which alone imports LibCST) and the
    # command's own dataclasses (its findings).
    assert any("whitespace_before_colon" in text for text in texts)
    assert any("end_column" in text for text in texts)


def test_only_the_command_installs_it() -> None:
    import dataclasses

    assert "exec" not in vars(dataclasses)  # importing the package or the API does not
    assert code_cache._path is None
