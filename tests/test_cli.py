"""The CLI contract: commands, output, exit codes.

Two layers:
- plumbing, in process with a fake analysis (`LEGACY`/`MANUAL`/`SYNTAX` markers), so
  exit codes and stream separation are pinned whatever the rules do;
- end to end, the installed `acp-migrate` executable as a subprocess in real temporary
  git repositories, with the real codemod.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from acp_migrate import __version__
from acp_migrate.cli import app
from acp_migrate.engine import runner
from acp_migrate.findings import Finding, SourceAnalysis, SourceError

GIT_ENV = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}

LEGACY = """\
from acp.schema import AgentCapabilities


def capabilities(cmds):
    return AgentCapabilities(load_session=True, slash_commands=cmds)
"""

LEGACY_EMPTY = """\
from acp.schema import AgentCapabilities


def capabilities():
    return AgentCapabilities(load_session=True, slash_commands=[])
"""

CLEAN = """\
from acp.schema import AgentCapabilities


def capabilities():
    return AgentCapabilities(load_session=True)
"""

# Both carry the legacy tokens, so no prefilter can skip them unread.
SYNTAX_ERROR = """\
from acp.schema import AgentCapabilities


def capabilities(:
    return AgentCapabilities(load_session=True, slash_commands=[])
"""
UNDECODABLE = b"from acp.schema import AgentCapabilities\n# caf\xe9\nCAPS = AgentCapabilities(slash_commands=[])\n"

FINDING_LINE = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<code>ACP\d{3}) .+$", re.MULTILINE)


# --- plumbing, in process, with a fake analysis ----------------------------------------------


def fake_analyze_source(source: bytes, *, path: str, fix: bool = True, **_options: object) -> SourceAnalysis:
    if b"SYNTAX" in source:
        raise SourceError("invalid syntax at line 1, column 1")
    findings = []
    remaining = []
    if b"LEGACY" in source:
        findings.append(_finding(path, 1, "ACP001", "legacy", fixable=True))
    if b"MANUAL" in source:
        manual = _finding(path, 2, "ACP005", "manual", fixable=False)
        findings.append(manual)
        remaining.append(manual)
    fixed = source.replace(b"LEGACY", b"MODERN") if fix and b"LEGACY" in source else None
    return SourceAnalysis(findings=findings, fixed_source=fixed, remaining=remaining)


def _finding(path: str, line: int, code: str, message: str, *, fixable: bool) -> Finding:
    return Finding(
        path=path, line=line, column=1, end_line=line, end_column=7, code=code, message=message, fixable=fixable
    )


@pytest.fixture
def fake_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(runner, "analyze_source", fake_analyze_source)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def invoke(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize(
    ("content", "check", "diff", "fix"),
    [
        (b"x = 1\n", 0, 0, 0),
        (b"LEGACY\n", 1, 1, 0),
        (b"LEGACY\nMANUAL\n", 1, 1, 1),
        (b"MANUAL\n", 1, 0, 1),
        (b"SYNTAX LEGACY\n", 2, 2, 2),
    ],
)
def test_exit_codes_of_every_command(fake_project: Path, content: bytes, check: int, diff: int, fix: int) -> None:
    (fake_project / "a.py").write_bytes(content)

    assert invoke("check", "a.py").exit_code == check
    assert invoke("check", "--output-format", "json", "a.py").exit_code == check
    assert invoke("diff", "a.py").exit_code == diff
    assert invoke("fix", "a.py").exit_code == fix


def test_errors_win_and_go_to_stderr_so_stdout_stays_parseable(fake_project: Path) -> None:
    (fake_project / "a.py").write_bytes(b"LEGACY\n")
    (fake_project / "b.py").write_bytes(b"SYNTAX\n")

    result = invoke("check", "--output-format", "json", ".", "missing")

    assert result.exit_code == 2
    assert [item["path"] for item in json.loads(result.stdout)] == ["a.py"]
    assert result.stderr.splitlines() == [
        "b.py: error: invalid syntax at line 1, column 1",
        "missing: error: no such file or directory",
    ]


def test_check_text_output(fake_project: Path) -> None:
    (fake_project / "a.py").write_bytes(b"LEGACY\nMANUAL\n")

    result = invoke("check")

    assert result.stdout.splitlines() == [
        "a.py:1:1: ACP001 legacy",
        "a.py:2:1: ACP005 manual",
        "Found 2 findings (1 fixable) in 1 file.",
    ]


def test_diff_prints_only_the_patch(fake_project: Path) -> None:
    (fake_project / "a.py").write_bytes(b"LEGACY\n")

    result = invoke("diff")

    assert result.stdout_bytes == b"--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-LEGACY\n+MODERN\n"
    assert (fake_project / "a.py").read_bytes() == b"LEGACY\n"


def test_fix_prints_what_changed_and_what_is_left(fake_project: Path) -> None:
    (fake_project / "a.py").write_bytes(b"LEGACY\nMANUAL\n")
    (fake_project / "b.py").write_bytes(b"SYNTAX\n")

    result = invoke("fix")

    assert result.exit_code == 2
    assert result.stdout.splitlines() == [
        "Fixed a.py",
        "a.py:2:1: ACP005 manual",
        "Fixed 1 file; 1 finding needs manual work; 1 file could not be analysed.",
    ]
    assert (fake_project / "a.py").read_bytes() == b"MODERN\nMANUAL\n"


def test_unknown_output_format_is_a_usage_error(fake_project: Path) -> None:
    assert invoke("check", "--output-format", "xml").exit_code == 2


# --- end to end: the installed executable, the real codemod ----------------------------------


def executable() -> str:
    found = shutil.which("acp-migrate", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail("acp-migrate is not installed next to this Python: pip install -e .")
    return found


def acp_migrate(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([executable(), *args], cwd=cwd, capture_output=True, timeout=120)


def git_repo(path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True, env=GIT_ENV)
    return path


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts
    }


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return git_repo(tmp_path / "repo")


def test_version(repo: Path) -> None:
    result = acp_migrate("--version", cwd=repo)

    assert result.returncode == 0
    assert result.stdout.decode().strip() == f"acp-migrate {__version__}"


def test_python_dash_m_runs_the_same_cli(repo: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "acp_migrate", "--version"], cwd=repo, capture_output=True)

    assert result.returncode == 0
    assert result.stdout.decode().strip() == f"acp-migrate {__version__}"


def test_start_up_does_not_import_libcst() -> None:
    probe = "import sys, acp_migrate.cli; print('libcst' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, check=True)

    assert result.stdout.decode().strip() == "False"


@pytest.mark.parametrize("command", ["check", "diff", "fix"])
def test_a_missing_path_exits_2_with_a_per_path_error(repo: Path, command: str) -> None:
    result = acp_migrate(command, "missing.py", cwd=repo)

    assert result.returncode == 2
    assert result.stderr.decode().splitlines() == ["missing.py: error: no such file or directory"]
    assert "passed" not in result.stdout.decode()


def test_check_exit_codes_and_lines(repo: Path) -> None:
    write(repo / "clean.py", CLEAN)
    write(repo / "pkg/agent.py", LEGACY)

    clean = acp_migrate("check", "clean.py", cwd=repo)
    legacy = acp_migrate("check", cwd=repo)

    assert (clean.returncode, clean.stdout.decode()) == (0, "All checks passed.\n")
    assert legacy.returncode == 1, legacy.stderr.decode()
    found = [m.groupdict() for m in FINDING_LINE.finditer(legacy.stdout.decode())]
    assert {"path": "pkg/agent.py", "line": "5", "code": "ACP001"} in [
        {key: f[key] for key in ("path", "line", "code")} for f in found
    ]
    assert legacy.stdout.decode().splitlines()[-1].startswith("Found ")
    assert (repo / "pkg/agent.py").read_text() == LEGACY  # check never writes


def test_check_json_output(repo: Path) -> None:
    write(repo / "agent.py", LEGACY)

    result = acp_migrate("check", "--output-format", "json", cwd=repo)

    assert result.returncode == 1, result.stderr.decode()
    data = json.loads(result.stdout)
    assert isinstance(data, list) and data
    for item in data:
        assert {"path", "line", "column", "end_line", "end_column", "code", "message", "fixable"} <= item.keys()
    assert any(item["code"] == "ACP001" and item["fixable"] and item["path"] == "agent.py" for item in data)


def test_check_reports_a_syntax_error_file_and_a_legacy_file(repo: Path) -> None:
    write(repo / "broken.py", SYNTAX_ERROR)
    write(repo / "agent.py", LEGACY)

    result = acp_migrate("check", cwd=repo)

    assert result.returncode == 2
    assert any(m["path"] == "agent.py" and m["code"] == "ACP001" for m in FINDING_LINE.finditer(result.stdout.decode()))
    errors = result.stderr.decode().splitlines()
    assert len(errors) == 1 and errors[0].startswith("broken.py: error: ")
    assert "internal error" not in errors[0]


def test_an_undecodable_file_is_reported_not_skipped(repo: Path) -> None:
    write(repo / "latin.py", UNDECODABLE)
    write(repo / "clean.py", CLEAN)

    result = acp_migrate("check", cwd=repo)

    assert result.returncode == 2
    errors = result.stderr.decode().splitlines()
    assert len(errors) == 1 and errors[0].startswith("latin.py: error: ")
    assert "internal error" not in errors[0]
    assert "passed" not in result.stdout.decode()


def test_default_path_is_the_current_directory_without_virtualenvs(repo: Path) -> None:
    write(repo / "src/agent.py", LEGACY)
    write(repo / ".venv/lib/site-packages/acp/old.py", LEGACY)
    write(repo / "env2/pyvenv.cfg", "home = /usr/bin\n")
    write(repo / "env2/lib/old.py", LEGACY)

    result = acp_migrate("check", "--output-format", "json", cwd=repo)

    assert {item["path"] for item in json.loads(result.stdout)} == {"src/agent.py"}


def test_diff_exit_codes_and_no_writes(repo: Path) -> None:
    write(repo / "clean.py", CLEAN)
    write(repo / "agent.py", LEGACY)

    clean = acp_migrate("diff", "clean.py", cwd=repo)
    legacy = acp_migrate("diff", cwd=repo)

    assert (clean.returncode, clean.stdout) == (0, b"")
    assert legacy.returncode == 1, legacy.stderr.decode()
    assert legacy.stdout.startswith(b"--- a/agent.py\n+++ b/agent.py\n@@ ")
    assert (repo / "agent.py").read_text() == LEGACY


def test_diff_piped_to_git_apply_gives_the_same_tree_as_fix(tmp_path: Path) -> None:
    sources = {
        "lf.py": LEGACY.encode(),
        "crlf.py": LEGACY.replace("\n", "\r\n").encode(),
        "no_final_newline.py": LEGACY.rstrip("\n").encode(),
        "bom.py": b"\xef\xbb\xbf" + LEGACY.encode(),
        "pkg/empty_commands.py": LEGACY_EMPTY.encode(),
        "pkg/clean.py": CLEAN.encode(),
    }
    by_diff = git_repo(tmp_path / "by_diff")
    by_fix = git_repo(tmp_path / "by_fix")
    for root in (by_diff, by_fix):
        for name, content in sources.items():
            write(root / name, content)

    patch = acp_migrate("diff", cwd=by_diff)
    applied = subprocess.run(["git", "apply", "-v"], input=patch.stdout, cwd=by_diff, capture_output=True, env=GIT_ENV)
    fixed = acp_migrate("fix", cwd=by_fix)

    assert patch.returncode == 1, patch.stderr.decode()
    assert applied.returncode == 0, applied.stderr.decode()
    assert fixed.returncode in (0, 1), fixed.stderr.decode()
    assert tree_bytes(by_diff) == tree_bytes(by_fix)
    after = tree_bytes(by_fix)
    assert after["pkg/clean.py"] == sources["pkg/clean.py"]
    for name in ("lf.py", "crlf.py", "no_final_newline.py", "bom.py", "pkg/empty_commands.py"):
        assert after[name] != sources[name], name
        assert b"slash_commands" not in after[name], name
    assert after["crlf.py"].count(b"\r\n") == after["crlf.py"].count(b"\n")
    assert not after["no_final_newline.py"].endswith(b"\n")
    assert after["bom.py"].startswith(b"\xef\xbb\xbf")


def test_fix_rewrites_and_reports_commands_that_need_a_person(repo: Path) -> None:
    write(repo / "agent.py", LEGACY)

    first = acp_migrate("fix", cwd=repo)
    second = acp_migrate("fix", cwd=repo)

    assert first.returncode == 1, first.stderr.decode()
    out = first.stdout.decode()
    assert "Fixed agent.py" in out.splitlines()
    assert any(m["path"] == "agent.py" and m["code"] == "ACP005" for m in FINDING_LINE.finditer(out))
    fixed = (repo / "agent.py").read_text()
    assert "AgentCapabilities(load_session=True)" in fixed
    assert "slash_commands" not in fixed
    assert "# acp-migrate: TODO" in fixed
    # The TODO keeps the run red (ACP007) until a person resolves it; nothing is rewritten twice.
    assert second.returncode == 1, second.stdout.decode() + second.stderr.decode()
    assert any(m["code"] == "ACP007" for m in FINDING_LINE.finditer(second.stdout.decode()))
    assert (repo / "agent.py").read_text() == fixed


def test_fix_of_provably_empty_commands_leaves_nothing_to_do(repo: Path) -> None:
    write(repo / "agent.py", LEGACY_EMPTY)

    result = acp_migrate("fix", cwd=repo)

    assert result.returncode == 0, result.stdout.decode() + result.stderr.decode()
    assert "Fixed agent.py" in result.stdout.decode().splitlines()
    assert (repo / "agent.py").read_text() == CLEAN


def test_fix_goes_on_past_a_bad_file(repo: Path) -> None:
    write(repo / "a_broken.py", SYNTAX_ERROR)
    write(repo / "b_agent.py", LEGACY_EMPTY)

    result = acp_migrate("fix", cwd=repo)

    assert result.returncode == 2
    assert result.stderr.decode().startswith("a_broken.py: error: ")
    assert "Fixed b_agent.py" in result.stdout.decode().splitlines()
    assert (repo / "b_agent.py").read_text() == CLEAN
    assert (repo / "a_broken.py").read_text() == SYNTAX_ERROR


def test_fix_keeps_the_file_mode(repo: Path) -> None:
    script = write(repo / "agent.py", LEGACY_EMPTY)
    script.chmod(0o755)

    acp_migrate("fix", cwd=repo)

    assert (repo / "agent.py").read_text() == CLEAN
    assert stat.S_IMODE(script.stat().st_mode) == 0o755


def test_fix_of_a_read_only_file_is_an_error_and_leaves_it_untouched(repo: Path) -> None:
    locked = write(repo / "locked.py", LEGACY_EMPTY)
    locked.chmod(0o444)

    result = acp_migrate("fix", cwd=repo)

    assert result.returncode == 2
    assert result.stderr.decode().splitlines() == ["locked.py: error: permission denied: file is read-only"]
    assert locked.read_text() == LEGACY_EMPTY


def test_paths_are_relative_to_the_current_directory(repo: Path) -> None:
    write(repo / "pkg/agent.py", LEGACY)
    elsewhere = repo / "docs"
    elsewhere.mkdir()

    relative = acp_migrate("check", "--output-format", "json", "../pkg", cwd=elsewhere)
    absolute = acp_migrate("check", "--output-format", "json", str(repo / "pkg/agent.py"), cwd=repo)
    patch = acp_migrate("diff", str(repo / "pkg"), cwd=repo)

    assert {item["path"] for item in json.loads(relative.stdout)} == {"../pkg/agent.py"}
    assert {item["path"] for item in json.loads(absolute.stdout)} == {"pkg/agent.py"}
    assert patch.stdout.startswith(b"--- a/pkg/agent.py\n+++ b/pkg/agent.py\n")


def test_the_example_agent_migrates_the_same_by_diff_and_by_fix(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[1] / "examples" / "legacy_agent"
    copies = [git_repo(tmp_path / "by_diff"), git_repo(tmp_path / "by_fix")]
    for copy in copies:
        # The example's own tests/ are migrated too (ACP008: fix names the tests it removes and
        # exits 1): tests/test_e2e_example_tests.py runs them; here the agent alone.
        shutil.copytree(example, copy / "legacy_agent", ignore=shutil.ignore_patterns("__pycache__", "tests"))
    by_diff, by_fix = copies

    patch = acp_migrate("diff", "legacy_agent", cwd=by_diff)
    applied = subprocess.run(["git", "apply"], input=patch.stdout, cwd=by_diff, capture_output=True, env=GIT_ENV)
    fixed = acp_migrate("fix", "legacy_agent", cwd=by_fix)

    assert patch.returncode == 1, patch.stderr.decode()
    assert applied.returncode == 0, applied.stderr.decode()
    # The example's commands move into its setup handlers: nothing is left for a person.
    assert fixed.returncode == 0, fixed.stdout.decode() + fixed.stderr.decode()
    assert tree_bytes(by_diff) == tree_bytes(by_fix)
    assert acp_migrate("diff", "legacy_agent", cwd=by_fix).stdout == b""
    assert acp_migrate("check", "legacy_agent", cwd=by_fix).returncode == 0


def test_the_entry_knows_the_commands_that_run_over_paths() -> None:
    from acp_migrate.__main__ import PATH_COMMANDS

    assert set(PATH_COMMANDS) == {mode.value for mode in runner.Mode}


@pytest.mark.parametrize(
    ("arguments", "folders"),
    [
        (["check"], ["."]),
        (["fix", "{folder}"], ["{folder}"]),
        (["diff", "--output-format", "json", "{file}", "{folder}"], ["{folder}"]),
        (["check", "--exclude", "nothing-here", "{file}"], []),  # an option's value is no path
        (["check", "{file}", "{file}"], []),  # pre-commit passes files
        (["check", "-", "--stdin-filename", "{file}"], []),
        (["check", "--help"], []),
        (["rules"], []),
        (["--version"], []),
        ([], []),
    ],
)
def test_the_entry_warms_up_for_runs_that_walk_folders(tmp_path: Path, arguments: list[str], folders: list[str]) -> None:
    from acp_migrate.__main__ import folders_to_walk

    (tmp_path / "code.py").write_text("VALUE = 1\n")
    spell = {"folder": str(tmp_path), "file": str(tmp_path / "code.py")}
    assert folders_to_walk([a.format(**spell) for a in arguments]) == [f.format(**spell) for f in folders]
