"""A hostile or broken repository (issue 24): no hang, no exhaustion, no code of the
repository run, nothing written outside the tree. Each attack runs the command in a
process with a timeout and an address-space limit (`run_guarded`), so that a
regression fails the test instead of hanging or exhausting CI."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hardening_support import HANG_GUARD, LEGACY_SNIPPETS, REPO, run_guarded, snapshot

pytestmark = pytest.mark.slow  # the installed command, in processes

GOLDEN = REPO / "golden"
# An agent whose setup handlers are inherited from `base.py` (read to find them).
INHERITING_AGENT = (
    (GOLDEN / "rewire-inherited-handlers-other-module/input/pool/agent.py")
    .read_text()
    .replace("from .base import", "from base import")
)
BASE = (GOLDEN / "rewire-inherited-handlers-other-module/input/pool/base.py").read_text()
# An agent with its own setup handlers: fix writes the vendored shim beside it.
AGENT = (GOLDEN / "rewire-same-class/input/agent.py").read_text()
SHIM = "acp_command_advertiser.py"


def _no_crash(result) -> None:
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr


# -- reads: one guarded reader ---------------------------------------------------------


def _unreadable(path: Path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")


def _without_base(tmp_path: Path) -> str:
    """What check says of the agent when base.py is not there at all."""
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "agent.py").write_text(INHERITING_AGENT)
    result = run_guarded("check", "agent.py", cwd=alone)
    assert result.returncode == 1 and "ACP001" in result.stdout, result
    return result.stdout


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_base_module_that_is_no_regular_file_is_not_read(tmp_path: Path, kind: str) -> None:
    (tmp_path / "agent.py").write_text(INHERITING_AGENT)
    _unreadable(tmp_path / "base.py", kind)

    result = run_guarded("check", "agent.py", cwd=tmp_path)

    # As if base.py were not there: its handlers are unknown, the finding says so.
    _no_crash(result)
    assert result.returncode == 1, result
    assert result.stdout == _without_base(tmp_path)


def test_a_base_module_too_large_to_parse_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text(INHERITING_AGENT)
    (tmp_path / "base.py").write_text(BASE + "\n" + "# padding\n" * 400_000)  # 4 MB

    result = run_guarded("check", "agent.py", cwd=tmp_path)

    _no_crash(result)
    assert result.returncode == 1, result
    assert result.stdout == _without_base(tmp_path)


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_shim_name_that_is_no_regular_file_is_reported(tmp_path: Path, kind: str) -> None:
    (tmp_path / "agent.py").write_text(AGENT)
    _unreadable(tmp_path / SHIM, kind)

    result = run_guarded("fix", "agent.py", cwd=tmp_path)

    _no_crash(result)
    assert result.returncode == 2, result
    assert f"agent.py: error: cannot read {SHIM}: not a regular file" in result.stderr
    assert (tmp_path / "agent.py").read_text() == AGENT


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
@pytest.mark.parametrize("name", ["pyproject.toml", ".ruff.toml", "ruff.toml", "setup.cfg"])
def test_a_configuration_file_that_is_no_regular_file_counts_as_absent(tmp_path: Path, name: str, kind: str) -> None:
    (tmp_path / "agent.py").write_text(LEGACY_SNIPPETS[0])
    _unreadable(tmp_path / name, kind)

    result = run_guarded("check", "--verbose", "agent.py", cwd=tmp_path)

    _no_crash(result)
    assert result.returncode == 1 and "ACP001" in result.stdout, result
    assert f"acp-migrate: ignored {tmp_path / name}: not a regular file" in result.stderr.splitlines()


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_config_option_naming_no_regular_file_is_one_error(tmp_path: Path, kind: str) -> None:
    (tmp_path / "agent.py").write_text(LEGACY_SNIPPETS[0])
    _unreadable(tmp_path / "ci.toml", kind)

    result = run_guarded("check", "--config", "ci.toml", "agent.py", cwd=tmp_path)

    assert result.returncode == 2, result
    assert result.stderr.splitlines() == [f"error: {tmp_path / 'ci.toml'}: cannot read: not a regular file"]


# -- writes: nothing outside the project -------------------------------------------------


def test_a_dangling_shim_symlink_out_of_the_tree_is_not_written_through(tmp_path: Path) -> None:
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (project / "agent.py").write_text(AGENT)
    (project / SHIM).symlink_to(outside / SHIM)

    result = run_guarded("fix", ".", cwd=project)

    _no_crash(result)
    assert result.returncode == 2, result
    assert "outside the project" in result.stderr and "Added" not in result.stdout
    assert list(outside.iterdir()) == []
    assert (project / "agent.py").read_text() == AGENT


def test_a_runtime_import_above_the_project_is_not_written(tmp_path: Path) -> None:
    shared, project = tmp_path / "shared", tmp_path / "project"
    shared.mkdir()
    (shared / "__init__.py").write_text("")
    project.mkdir()
    (project / ".git").mkdir()  # the project's root
    (project / "pyproject.toml").write_text('[tool.acp-migrate]\nruntime-import = "shared.acp_shim"\n')
    (project / "agent.py").write_text(AGENT)

    result = run_guarded("fix", ".", cwd=project)

    _no_crash(result)
    assert result.returncode == 2, result
    assert f"its real path {shared / 'acp_shim.py'} is outside the project" in result.stderr
    assert sorted(p.name for p in shared.iterdir()) == ["__init__.py"]
    assert (project / "agent.py").read_text() == AGENT


# A run whose analysis of one file runs `ACTION` first (in this process: a small run
# uses no workers), to act between the read and the write as another process would.
_DURING_THE_RUN = """
import sys
from acp_migrate.engine.execution import runner

analyze = runner.analyze_source
done = []

def analyze_source(source, **kwargs):
    if not done and kwargs["path"].endswith({trigger!r}):
        done.append(True)
{action}
    return analyze(source, **kwargs)

runner.analyze_source = analyze_source
sys.argv = ["acp-migrate", *sys.argv[1:]]
from acp_migrate.__main__ import main
main()
"""


def _run_with(action: str, trigger: str, *args: str, cwd: Path):
    script = _DURING_THE_RUN.format(trigger=trigger, action=textwrap.indent(textwrap.dedent(action), " " * 8))
    return run_guarded(*args, cwd=cwd, command=[sys.executable, "-c", script])


def test_a_folder_swapped_for_a_symlink_during_the_run_is_not_written_through(tmp_path: Path) -> None:
    project, outside = tmp_path / "project", tmp_path / "outside"
    (project / "pkg").mkdir(parents=True)
    outside.mkdir()
    for index in range(3):
        (project / "pkg" / f"m{index}.py").write_text(LEGACY_SNIPPETS[0])
        (outside / f"m{index}.py").write_text(LEGACY_SNIPPETS[0])
    swap = f"""
    import os
    os.rename({str(project / "pkg")!r}, {str(tmp_path / "moved")!r})
    os.symlink({str(outside)!r}, {str(project / "pkg")!r})
    """
    before = snapshot(outside)

    result = _run_with(swap, "m0.py", "fix", ".", cwd=project)

    _no_crash(result)
    assert result.returncode == 2, result
    assert snapshot(outside) == before
    # Refused where its real path leaves the project, so every file of the run is.
    assert re.search(rf"error: not written: its real path {re.escape(str(outside))}/m\d\.py is outside", result.stderr)
    assert all(f"{os.path.join('pkg', f'm{index}.py')}: error: " in result.stderr for index in range(3)), result


def test_a_file_an_editor_saved_during_the_run_is_not_overwritten(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(LEGACY_SNIPPETS[0])
    (tmp_path / "b.py").write_text(LEGACY_SNIPPETS[1])
    edited = LEGACY_SNIPPETS[0] + "# the user's edit\n"
    editor = f"open({str(tmp_path / 'a.py')!r}, 'w').write({edited!r})"

    result = _run_with(editor, "a.py", "fix", ".", cwd=tmp_path)

    _no_crash(result)
    assert result.returncode == 2, result
    assert "a.py: error: changed by someone else since it was read: not overwritten" in result.stderr
    assert (tmp_path / "a.py").read_text() == edited
    # A run is written whole or not at all: b.py waits for a run that can write a.py too.
    assert "b.py: error: not written: fix writes all of a run's files or none, and a.py cannot" in result.stderr
    assert (tmp_path / "b.py").read_text() == LEGACY_SNIPPETS[1]


# -- time and memory ---------------------------------------------------------------------


@pytest.mark.parametrize("glob", ["**/" * 25 + "never.py", "**" * 25 + "never.py", "*a" * 25 + "/b"])
def test_globs_match_in_linear_time(tmp_path: Path, glob: str) -> None:
    deep = tmp_path.joinpath(*["a"] * 40)
    deep.mkdir(parents=True)
    (deep / "legacy.py").write_text(LEGACY_SNIPPETS[0])

    result = run_guarded("check", "--extend-exclude", glob, ".", cwd=tmp_path)

    _no_crash(result)
    assert result.returncode == 1 and "legacy.py" in result.stdout, result


def test_a_fifty_megabyte_candidate_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    # The time guard is generous; memory is what it would cost to tokenise it whole.
    big = tmp_path / "big.py"
    big.write_text(LEGACY_SNIPPETS[0] + "x = [1, 2, 3]\n" * 3_600_000)
    assert big.stat().st_size > 50_000_000

    result = run_guarded("fix", ".", cwd=tmp_path)

    _no_crash(result)
    assert result.returncode == 2, result
    assert "big.py: error: too large to analyse: " in result.stderr


# -- no code of the repository runs ------------------------------------------------------


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, timeout=HANG_GUARD)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
@pytest.mark.parametrize("command", ["check", "fix"])
def test_the_repository_s_git_settings_run_no_command(tmp_path: Path, command: str) -> None:
    _git("init", "-q", ".", cwd=tmp_path)
    (tmp_path / "agent.py").write_text(LEGACY_SNIPPETS[0])
    (tmp_path / ".gitignore").write_text("generated/\n")
    marker = tmp_path.parent / f"{tmp_path.name}-ran"
    hook = tmp_path / ".git" / "evil"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    hook.chmod(0o755)
    for setting in ("core.fsmonitor", "core.pager", "core.sshCommand", "diff.external"):
        _git("config", setting, str(hook), cwd=tmp_path)
    _git("config", "core.hooksPath", str(tmp_path / ".git"), cwd=tmp_path)

    result = run_guarded(command, ".", cwd=tmp_path)

    _no_crash(result)
    assert result.returncode in (0, 1), result
    assert not marker.exists(), "a command of the scanned repository's git configuration ran"


@pytest.mark.parametrize("module", ["ast", "typing", "dataclasses"])
def test_python_m_does_not_import_the_current_folder_s_modules(tmp_path: Path, module: str) -> None:
    (tmp_path / f"{module}.py").write_text("raise SystemExit('the project’s own module was imported')\n")
    (tmp_path / "agent.py").write_text(LEGACY_SNIPPETS[0])

    result = run_guarded("check", "agent.py", cwd=tmp_path, command=[sys.executable, "-m", "acp_migrate"])

    _no_crash(result)
    assert result.returncode == 1 and "ACP001" in result.stdout, result


# -- one-line errors, not tracebacks ------------------------------------------------------


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args",
    [
        ["check", "agent.py"],
        ["check", "--output-format", "sarif", "agent.py"],
        ["diff", "agent.py"],
        ["rules"],
        ["rules", "ACP001"],
        ["-V"],
        ["fix", "-"],
        ["check", "--help"],
    ],
    ids=" ".join,
)
def test_a_full_stdout_is_one_error_line_and_exit_2(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "agent.py").write_text(LEGACY_SNIPPETS[0])
    with open("/dev/full", "w") as full, open(tmp_path / "agent.py") as stdin:
        result = run_guarded(
            *args, cwd=tmp_path, stdout=full, stdin=stdin, capture_output=False, stderr=subprocess.PIPE
        )

    assert result.returncode == 2, result
    assert result.stderr.splitlines() == [
        "error: cannot write the output: no space left on device"
        if args != ["check", "--help"]
        else "error: no space left on device"
    ]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_output_file_is_one_error_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text(LEGACY_SNIPPETS[0])

    result = run_guarded("check", "-o", "/dev/full", "agent.py", cwd=tmp_path)

    assert result.returncode == 2, result
    assert result.stderr.splitlines() == ["error: cannot write the report to /dev/full: no space left on device"]


def _undecodable_name(tmp_path: Path) -> Path:
    path = Path(os.fsdecode(bytes(tmp_path) + b"/caf\xe9.py"))
    try:
        path.write_text(LEGACY_SNIPPETS[0])
    except (OSError, UnicodeEncodeError):
        pytest.skip("the file system refuses names that are not UTF-8")
    return path


def test_sarif_names_a_file_whose_name_is_not_utf8(tmp_path: Path) -> None:
    import json

    _undecodable_name(tmp_path)

    result = run_guarded("check", "--output-format", "sarif", ".", cwd=tmp_path)

    _no_crash(result)
    assert result.returncode == 1, result
    (location,) = [r["locations"][0] for r in json.loads(result.stdout)["runs"][0]["results"]]
    assert location["physicalLocation"]["artifactLocation"]["uri"] == "caf%E9.py"


def test_escape_sequences_and_undecodable_bytes_in_names_are_escaped(tmp_path: Path) -> None:
    _undecodable_name(tmp_path)
    (tmp_path / "red\x1b[31m.py").write_text(LEGACY_SNIPPETS[0])
    (tmp_path / "pyproject.toml").write_text('[tool.acp-migrate]\n"key\\u001b]0;title\\u0007" = 1\n')

    result = run_guarded("check", "--isolated", ".", cwd=tmp_path)
    configured = run_guarded("check", ".", cwd=tmp_path)

    assert result.returncode == 1, result
    assert "caf\\xe9.py:" in result.stdout and "red\\x1b[31m.py:" in result.stdout
    assert configured.returncode == 2
    assert configured.stderr.splitlines() == [
        f"error: {tmp_path / 'pyproject.toml'}: [tool.acp-migrate] unknown key 'key\\x1b]0;title\\x07'"
    ]
    for output in (result.stdout, result.stderr, configured.stdout, configured.stderr):
        assert "\x1b" not in output and "\x07" not in output and "\udce9" not in output


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_patch_quotes_names_as_git_does_and_applies(tmp_path: Path) -> None:
    patched, fixed = tmp_path / "patched", tmp_path / "fixed"
    for tree in (patched, fixed):
        tree.mkdir()
        (tree / "red\x1b[31m.py").write_text(LEGACY_SNIPPETS[0])
        (tree / 'quo"te.py').write_text(LEGACY_SNIPPETS[1])
    _git("init", "-q", ".", cwd=patched)

    patch = run_guarded("diff", ".", cwd=patched, text=False)

    assert patch.returncode == 1, patch
    assert b"\x1b" not in patch.stdout
    assert b'+++ "b/red\\033[31m.py"\n' in patch.stdout and b'+++ "b/quo\\"te.py"\n' in patch.stdout
    subprocess.run(["git", "apply"], input=patch.stdout, cwd=patched, check=True, timeout=HANG_GUARD)
    run_guarded("fix", ".", cwd=fixed)
    assert {k: v for k, v in snapshot(patched).items() if not k.startswith(".git")} == snapshot(fixed)


def test_a_pyproject_nested_thousands_deep_is_one_error(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.acp-migrate]\nselect = " + "[" * 5000 + "]" * 5000 + "\n")
    (tmp_path / "a.py").write_text("x = 1\n")

    result = run_guarded("check", ".", cwd=tmp_path)

    assert result.returncode == 2, result
    assert result.stderr.splitlines() == [f"error: {tmp_path / 'pyproject.toml'}: invalid TOML: nested too deeply"]


# -- leftovers --------------------------------------------------------------------------


def test_fix_removes_the_temp_files_a_killed_run_left(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "agent.py").write_text(LEGACY_SNIPPETS[0])
    dead = subprocess.Popen(["true"])
    dead.wait(timeout=HANG_GUARD)
    killed = tmp_path / "pkg" / f".agent.py.{dead.pid}.0badf00d.acp-migrate.tmp"
    before_0_3 = tmp_path / "pkg" / ".agent.py.k3x_9qzw.acp-migrate.tmp"  # tempfile.mkstemp's
    running = tmp_path / "pkg" / f".agent.py.{os.getpid()}.0badf00d.acp-migrate.tmp"  # a run going on
    for leftover in (killed, before_0_3, running):
        leftover.write_text("half a file")

    checked = run_guarded("check", ".", cwd=tmp_path)
    assert checked.returncode == 1 and killed.exists() and before_0_3.exists()  # check writes nothing

    result = run_guarded("fix", ".", cwd=tmp_path)

    _no_crash(result)
    assert result.returncode == 1 and "Changed pkg/agent.py" in result.stdout, result
    assert not killed.exists() and not before_0_3.exists()
    assert running.read_text() == "half a file"


# -- messages ---------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["check", "diff", "fix"])
def test_a_folder_without_python_files_warns_as_ruff_does(tmp_path: Path, command: str) -> None:
    (tmp_path / "notes.txt").write_text("slash_commands\n")

    result = run_guarded(command, ".", cwd=tmp_path)

    assert result.returncode == 0, result
    assert result.stderr.splitlines() == ["warning: No Python files found under the given path(s)"]


def test_check_diff_points_to_the_diff_command(tmp_path: Path) -> None:
    result = run_guarded("check", "--diff", ".", cwd=tmp_path)

    assert result.returncode == 2
    assert "`acp-migrate diff [PATH]...`" in result.stderr and "Traceback" not in result.stderr


def test_a_file_fix_could_not_write_is_counted_apart_from_the_unanalysed(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text(AGENT)
    (tmp_path / SHIM).symlink_to(tmp_path.parent / f"{tmp_path.name}-{SHIM}")
    (tmp_path / "broken.py").write_text("def broken(:\n    slash_commands = 1\n")

    result = run_guarded("fix", ".", cwd=tmp_path)

    assert result.returncode == 2
    assert result.stdout.splitlines()[-1].endswith("1 file could not be analysed; 1 file could not be written.")


def test_the_summary_of_many_added_shims_stays_one_short_line(tmp_path: Path) -> None:
    for index in range(7):
        (tmp_path / f"agent{index}").mkdir()
        (tmp_path / f"agent{index}" / "agent.py").write_text(AGENT)

    result = run_guarded("fix", ".", cwd=tmp_path)

    assert result.returncode in (0, 1), result
    summary = result.stdout.splitlines()[-1]
    assert "added 7 files (" in summary and ", and 2 more)" in summary and len(summary) < 400, summary


def test_config_names_a_pyproject_of_another_name(tmp_path: Path) -> None:
    (tmp_path / "ci.toml").write_text('[tool.acp-migrate]\nselect = ["ACP002"]\n')
    (tmp_path / "agent.py").write_text(LEGACY_SNIPPETS[0])  # ACP001 only

    result = run_guarded("check", "--config", "ci.toml", "agent.py", cwd=tmp_path)

    assert result.returncode == 0 and result.stderr == "", result
