"""The CLI contract: commands, output, exit codes.

Two layers:
- plumbing, in process with a fake analysis (`LEGACY`/`MANUAL`/`SYNTAX` markers), so
  exit codes and stream separation are pinned whatever the rules do;
- end to end, the command as the console script runs it (in process: tests/support/command.py)
  in real temporary git repositories, with the real codemod; the installed executable
  itself, as a subprocess, where the process is what is tested.
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
from support.command import run_acp_migrate
from typer.testing import CliRunner

from acp_migrate import __version__, api
from acp_migrate.cli import app
from acp_migrate.config import known_codes
from acp_migrate.engine.execution import runner
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
        "a.py:1:1: ACP001 [*] legacy",  # fixable, as ruff marks it
        "a.py:2:1: ACP005 manual",
        "Found 2 findings in 1 file.",
        "[*] 1 fixable with `acp-migrate fix`.",
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
        "Fixed 1 finding in 1 file; 1 finding needs manual work; 1 file could not be analysed.",
    ]
    assert (fake_project / "a.py").read_bytes() == b"MODERN\nMANUAL\n"


def test_unknown_output_format_is_a_usage_error(fake_project: Path) -> None:
    assert invoke("check", "--output-format", "xml").exit_code == 2


# --- ruff's habits ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "check", "diff", "fix"),
    [
        (b"x = 1\n", 0, 0, 0),
        (b"LEGACY\n", 0, 0, 0),
        (b"LEGACY\nMANUAL\n", 0, 0, 0),
        (b"SYNTAX LEGACY\n", 2, 2, 2),  # errors are never hidden
    ],
)
def test_exit_zero_turns_findings_but_not_errors_into_success(
    fake_project: Path, content: bytes, check: int, diff: int, fix: int
) -> None:
    (fake_project / "a.py").write_bytes(content)

    assert invoke("check", "--exit-zero", "a.py").exit_code == check
    assert invoke("check", "--exit-zero", "--output-format", "json", "a.py").exit_code == check
    assert invoke("diff", "--exit-zero", "a.py").exit_code == diff
    assert invoke("fix", "--exit-zero", "a.py").exit_code == fix


@pytest.mark.parametrize("command", [["fix"], ["check", "--fix"]])
def test_exit_non_zero_on_fix(fake_project: Path, command: list[str]) -> None:
    (fake_project / "a.py").write_bytes(b"LEGACY\n")
    (fake_project / "b.py").write_bytes(b"x = 1\n")

    fixed = invoke(*command, "--exit-non-zero-on-fix", "a.py")
    again = invoke(*command, "--exit-non-zero-on-fix", "a.py")
    clean = invoke(*command, "--exit-non-zero-on-fix", "b.py")

    assert (fixed.exit_code, again.exit_code, clean.exit_code) == (1, 0, 0)
    assert (fake_project / "a.py").read_bytes() == b"MODERN\n"
    assert invoke(*command, "--exit-non-zero-on-fix", "--exit-zero").exit_code == 2


def test_check_fix_is_fix(fake_project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    (fake_project / "a.py").write_bytes(b"LEGACY\nMANUAL\n")
    (fake_project / "b.py").write_bytes(b"LEGACY\n")
    other = tmp_path_factory.mktemp("other")
    for name in ("a.py", "b.py"):
        shutil.copy(fake_project / name, other / name)

    by_check = invoke("check", "--fix")
    os.chdir(other)
    by_fix = invoke("fix")

    assert (by_check.exit_code, by_check.stdout) == (by_fix.exit_code, by_fix.stdout) == (1, by_fix.stdout)
    assert by_check.stdout.splitlines()[:2] == ["Fixed a.py", "Fixed b.py"]
    assert (fake_project / "b.py").read_bytes() == (other / "b.py").read_bytes() == b"MODERN\n"
    concise = invoke("check", "--fix", "--output-format", "concise")
    assert concise.stdout.splitlines() == ["a.py:2:1: ACP005 manual"]  # what is left, alone


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "--fix", "--output-format", "json"], "--fix works with --output-format text or concise"),
        (["check", "--fix", "--statistics"], "--fix works with"),
        (["check", "--exit-non-zero-on-fix"], "--exit-non-zero-on-fix needs --fix"),
        (["check", "--show-fixes", "--output-format", "sarif"], "--show-fixes works with"),
        (["fix", "--exit-zero", "--exit-non-zero-on-fix"], "cannot be combined"),
        (["check", "-q", "-v"], "--quiet and --verbose cannot be combined"),
    ],
)
def test_flags_that_do_not_go_together_exit_2(fake_project: Path, args: list[str], message: str) -> None:
    (fake_project / "a.py").write_bytes(b"LEGACY\n")

    result = invoke(*args)

    assert result.exit_code == 2 and message in result.stderr
    assert (fake_project / "a.py").read_bytes() == b"LEGACY\n"


def test_show_fixes_lists_what_fix_fixed_and_check_would(fake_project: Path) -> None:
    (fake_project / "a.py").write_bytes(b"LEGACY\nMANUAL\n")
    (fake_project / "b.py").write_bytes(b"MANUAL\n")

    check = invoke("check", "--show-fixes")
    fix = invoke("fix", "--show-fixes")

    assert check.stdout.splitlines()[3:] == [
        "Would fix 1 finding:",
        "- a.py:",
        "    1 × ACP001 (initialize-slash-commands)",
        "Found 3 findings in 2 files.",
        "[*] 1 fixable with `acp-migrate fix`.",
    ]
    assert fix.stdout.splitlines() == [
        "Fixed 1 finding:",
        "- a.py:",
        "    1 × ACP001 (initialize-slash-commands)",
        "a.py:2:1: ACP005 manual",
        "b.py:2:1: ACP005 manual",
        "Fixed 1 finding in 1 file; 2 findings need manual work.",
    ]
    assert invoke("fix", "--show-fixes").stdout.splitlines() == [
        "a.py:2:1: ACP005 manual",
        "b.py:2:1: ACP005 manual",
        "2 findings need manual work.",
    ]


def test_output_file_takes_the_report(fake_project: Path) -> None:
    (fake_project / "a.py").write_bytes(b"LEGACY\n")
    (fake_project / "b.py").write_bytes(b"SYNTAX\n")

    check = invoke("check", "--output-file", "out/check.txt", "a.py", "b.py")
    as_json = invoke("check", "--output-format", "json", "-o", "check.json", "a.py")
    diff = invoke("diff", "-o", "changes.patch", "a.py")
    fix = invoke("fix", "-o", "fix.txt", "a.py")

    assert (check.exit_code, check.stdout) == (2, "")
    assert check.stderr == "b.py: error: invalid syntax at line 1, column 1\n"  # errors stay on stderr
    assert (fake_project / "out/check.txt").read_text().splitlines() == [
        "a.py:1:1: ACP001 [*] legacy",
        "Found 1 finding in 1 file; 1 file could not be analysed.",
        "[*] 1 fixable with `acp-migrate fix`.",
    ]
    assert [item["code"] for item in json.loads((fake_project / "check.json").read_text())] == ["ACP001"]
    assert (diff.exit_code, diff.stdout) == (1, "")
    assert (fake_project / "changes.patch").read_bytes() == b"--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-LEGACY\n+MODERN\n"
    assert (fix.exit_code, fix.stdout) == (0, "")
    assert (fake_project / "fix.txt").read_text() == "Fixed a.py\nFixed 1 finding in 1 file.\n"


def test_an_output_file_that_cannot_be_written_stops_fix_before_it_writes(fake_project: Path) -> None:
    (fake_project / "a.py").write_bytes(b"LEGACY\n")
    (fake_project / "taken").write_text("a file, not a folder\n")

    result = invoke("fix", "-o", "taken/report.txt", "a.py")

    assert result.exit_code == 2
    assert result.stderr.startswith("error: cannot write the report to taken/report.txt: ")
    assert (fake_project / "a.py").read_bytes() == b"LEGACY\n"


def test_fix_from_stdin_with_an_output_file_keeps_the_code_on_stdout(
    fake_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(api, "analyze_source", fake_analyze_source)

    result = CliRunner().invoke(app, ["fix", "-", "-o", "left.txt"], input=b"LEGACY\nMANUAL\n")

    assert (result.exit_code, result.stdout) == (1, "MODERN\nMANUAL\n")
    assert (fake_project / "left.txt").read_text() == "-:2:1: ACP005 manual\n"


def test_verbose_names_the_configuration_and_the_rules(fake_project: Path) -> None:
    (fake_project / "a.py").write_bytes(b"x = 1\n")
    config = fake_project / "pyproject.toml"
    config.write_text("[tool.acp-migrate]\nignore = ['ACP00']\n")

    found = invoke("check", "-v", "--select", "ACP00", "--ignore", "ACP004,ACP1", "a.py")
    isolated = invoke("check", "--verbose", "--isolated", "a.py")
    named = invoke("check", "--verbose", "--config", str(config), "--select", "ALL", "a.py")
    config.unlink()
    none = invoke("check", "--verbose", "a.py")

    assert found.exit_code == 0
    assert found.stderr.splitlines()[:3] == [
        f"acp-migrate: configuration: {config}",
        "acp-migrate: no target SDK: the project states no requirement on agent-client-protocol"
        " (--target-sdk names one)",
        "acp-migrate: rules: " + ", ".join(sorted(c for c in known_codes() if c.startswith("ACP00") and c != "ACP004")),
    ]
    assert re.fullmatch(r"acp-migrate: 1 file scanned in \d+\.\d\ds", found.stderr.splitlines()[3])
    assert isolated.stderr.splitlines()[0] == "acp-migrate: configuration: none (--isolated): the defaults"
    assert named.stderr.splitlines()[0] == f"acp-migrate: configuration: {config} (--config)"
    assert "ACP001" in named.stderr.splitlines()[2] and "ACP100" not in named.stderr.splitlines()[2]
    assert none.stderr.splitlines()[0].startswith("acp-migrate: configuration: none found")
    assert invoke("check", "a.py").stderr == ""


def test_verbose_names_the_configuration_files_counted_as_absent(fake_project: Path) -> None:
    (fake_project / "a.py").write_bytes(b"x = 1\n")
    (fake_project / "ruff.toml").write_text("[lint\n")
    (fake_project / ".flake8").mkdir()

    result = invoke("check", "--verbose", "a.py")

    assert result.exit_code == 0
    assert [line.split(" (")[0] for line in result.stderr.splitlines()[1:3]] == [
        f"acp-migrate: ignored {fake_project / '.flake8'}: is a directory",
        f"acp-migrate: ignored {fake_project / 'ruff.toml'}: invalid TOML: Expected ']' at the end of a table declaration",
    ]


def test_the_removed_target_protocol_flag_is_unknown(fake_project: Path) -> None:
    result = invoke("check", "--target-protocol", "1", "a.py")

    assert result.exit_code == 2
    assert "No such option: --target-protocol" in result.stderr


def test_every_configuration_problem_is_reported_at_once(fake_project: Path) -> None:
    config = fake_project / "pyproject.toml"
    config.write_text("[tool.acp-migrate]\nselect = ['ACP9']\nforce-exclude = 3\n")

    result = invoke("check", "--select", "ACP7", "--ignore", "x-1", "--runtime-import", "a b")

    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert [line.split(":")[1].strip() for line in lines[:3]] == ["--ignore", "--runtime-import", "--select"]
    assert lines[3].startswith(f"error: {config}: [tool.acp-migrate] 'force-exclude': ")
    assert lines[4].startswith(f"error: {config}: [tool.acp-migrate] 'select': unknown rule code 'ACP9'")
    assert len(lines) == 5


def test_version_short_and_long() -> None:
    assert invoke("-V").stdout == invoke("--version").stdout == f"acp-migrate {__version__}\n"


def test_bare_command_prints_the_help_and_exits_0() -> None:
    result = invoke()

    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: acp-migrate [OPTIONS] COMMAND [ARGS]...")
    assert all(f"  {command} " in result.stdout for command in ("check", "diff", "fix", "rules"))


@pytest.mark.parametrize("command", [[], ["check"], ["diff"], ["fix"], ["rules"]])
def test_help_reads_at_80_columns(command: list[str]) -> None:
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "80"})
    short = CliRunner().invoke(app, [*command, "-h"], env={"COLUMNS": "80"})

    wide = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "200"})

    assert result.exit_code == 0 and short.stdout == result.stdout == wide.stdout  # 80 on any terminal
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert not re.search(r"--[a-z-]+-$", result.stdout, re.MULTILINE)  # no option name broken at a hyphen
    assert not {"…", "<str>", "<int", "│", "╭"} & set("".join(lines)) and "<str>" not in result.stdout
    assert "x<=" not in result.stdout  # no `[1<=x<=2]` ranges
    examples = lines[lines.index("  Examples:") + 1 :]
    assert len([line for line in examples[:4] if line.startswith("    acp-migrate")]) >= 3
    if command and command[0] in ("check", "diff", "fix"):
        assert lines[0] == f"Usage: acp-migrate {command[0]} [OPTIONS] [PATH]..."
        for flag in ("--respect-gitignore / --no-respect-gitignore", "--report-unused-suppressions", "--select CODES"):
            assert flag in result.stdout  # whole: never clipped
        assert re.search(r"^  -o, --output-file FILE +Write the report", result.stdout, re.MULTILINE)


def test_the_rule_list_reads_at_80_columns() -> None:
    result = CliRunner().invoke(app, ["rules"], env={"COLUMNS": "200"})

    assert result.exit_code == 0
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


def test_the_help_shows_the_options_each_command_takes() -> None:
    check, diff, fix = (CliRunner().invoke(app, [c, "--help"]).stdout for c in ("check", "diff", "fix"))

    for flag in ("--fix", "--show-fixes", "--exit-zero", "--exit-non-zero-on-fix", "--statistics", "--verbose"):
        assert flag in check
    assert "--exit-zero" in diff and "--show-fixes" not in diff and "--fix " not in diff
    assert "--exit-non-zero-on-fix" in fix and "--output-format" not in fix
    for text in (check, diff, fix):
        assert text.index("Rule selection:") < text.index("File selection:") < text.index("Configuration:")


# --- end to end: the command's entry point, the real codemod ---------------------------------


def executable() -> str:
    found = shutil.which("acp-migrate", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail("acp-migrate is not installed next to this Python: pip install -e .")
    return found


def acp_migrate(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return run_acp_migrate(*args, cwd=cwd)


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
    result = subprocess.run([executable(), "--version"], cwd=repo, capture_output=True, timeout=120)

    assert result.returncode == 0
    assert result.stdout.decode().strip() == f"acp-migrate {__version__}"


def test_python_dash_m_runs_the_same_cli(repo: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "acp_migrate", "--version"], cwd=repo, capture_output=True)

    assert result.returncode == 0
    assert result.stdout.decode().strip() == f"acp-migrate {__version__}"


def test_the_command_in_process_gives_what_the_installed_script_gives(repo: Path) -> None:
    write(repo / "agent.py", LEGACY)
    write(repo / "broken.py", SYNTAX_ERROR)
    # Exit code 2 with errors on stderr, a patch's raw bytes, and the listing typer lays out.
    runs = [["check", ".", "missing.py"], ["diff", "agent.py"], ["rules"]]

    for args in runs:
        process = subprocess.run([executable(), *args], cwd=repo, capture_output=True, timeout=120)
        here = run_acp_migrate(*args, cwd=repo)
        assert (here.returncode, here.stdout, here.stderr) == (process.returncode, process.stdout, process.stderr), args


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
    write(repo / "agent.py", LEGACY_EMPTY)

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
    # A list fix cannot move stays where it was, with a TODO above it; an empty one goes.
    for name in ("lf.py", "crlf.py", "no_final_newline.py", "bom.py"):
        assert b"# acp-migrate: TODO" in after[name] and b"slash_commands=cmds" in after[name], name
    assert b"slash_commands" not in after["pkg/empty_commands.py"]
    assert after["crlf.py"].count(b"\r\n") == after["crlf.py"].count(b"\n")
    assert not after["no_final_newline.py"].endswith(b"\n")
    assert after["bom.py"].startswith(b"\xef\xbb\xbf")


def test_fix_rewrites_and_reports_commands_that_need_a_person(repo: Path) -> None:
    write(repo / "agent.py", LEGACY)

    first = acp_migrate("fix", cwd=repo)
    second = acp_migrate("fix", cwd=repo)

    assert first.returncode == 1, first.stderr.decode()
    out = first.stdout.decode()
    assert "Changed agent.py" in out.splitlines()  # only a TODO written: nothing was fixed
    assert any(m["path"] == "agent.py" and m["code"] == "ACP005" for m in FINDING_LINE.finditer(out))
    fixed = (repo / "agent.py").read_text()
    # Not an agent's initialize: the list cannot be moved, so it stays (the server runs as
    # before) with a TODO above it.
    assert "AgentCapabilities(load_session=True, slash_commands=cmds)" in fixed
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


@pytest.mark.slow  # the command and git on the whole example, in processes
def test_the_example_agent_migrates_the_same_by_diff_and_by_fix(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[1] / "examples" / "legacy_agent"
    copies = [git_repo(tmp_path / "by_diff"), git_repo(tmp_path / "by_fix")]
    for copy in copies:
        shutil.copytree(example, copy / "legacy_agent", ignore=shutil.ignore_patterns("__pycache__"))
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




def test_check_sarif_describes_the_source_rules_not_the_wire_rules(tmp_path: Path) -> None:
    (tmp_path / "clean.py").write_text("VALUE = 1\n")
    result = invoke("check", "--output-format", "sarif", str(tmp_path / "clean.py"))
    ids = [rule["id"] for rule in json.loads(result.stdout)["runs"][0]["tool"]["driver"]["rules"]]
    assert ids == [rule.code for rule in api.list_rules(wire=False)]
    assert "ACP100" in ids and not any(code.startswith("ACP1") and code != "ACP100" for code in ids)
