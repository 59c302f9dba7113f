"""What depends on the process, through the installed `acp-migrate` executable: TTY detection
(colour, progress, closing summary) through a pseudo-terminal, exit codes of bad
configuration and options, `.gitignore` in real git work trees, stdin, `rules`."""

from __future__ import annotations

import json
import os
import pty
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

pytestmark = pytest.mark.slow  # the installed command, in a process per call

EXECUTABLE = Path(sys.executable).parent / "acp-migrate"
ANSI = re.compile(rb"\x1b\[[0-9;]*[mK]")
SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())

LEGACY = "from acp.schema import AgentCapabilities\n\nCAPS = AgentCapabilities(load_session=True, slash_commands=[])\n"
FIXED = LEGACY.replace(", slash_commands=[]", "")


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, TERM="xterm-256color", COLUMNS="100")
    env.update(extra)
    return env


def acp_migrate(*args: str, cwd: Path, stdin: bytes | None = None, **env: str) -> subprocess.CompletedProcess[bytes]:
    if not EXECUTABLE.exists():
        pytest.fail(f"{EXECUTABLE} is missing: pip install -e .")
    return subprocess.run(
        [str(EXECUTABLE), *args], cwd=cwd, input=stdin, capture_output=True, timeout=120, env=environment(**env)
    )


def in_pty(*args: str, cwd: Path, stdout_tty: bool = True, stderr_tty: bool = True) -> tuple[int, bytes, bytes, bytes]:
    """(exit code, what the terminal showed, piped stdout, piped stderr)."""
    master, slave = pty.openpty()
    process = subprocess.Popen(
        [str(EXECUTABLE), *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=slave if stdout_tty else subprocess.PIPE,
        stderr=slave if stderr_tty else subprocess.PIPE,
        env=environment(),
    )
    os.close(slave)
    shown = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        shown.append(chunk)
    out, err = process.communicate(timeout=120)
    os.close(master)
    return process.returncode, b"".join(shown), out or b"", err or b""


def git_repo(path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.fail("git is needed for these tests")
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True, env=environment())
    return path


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = git_repo(tmp_path / "repo")
    write(root / "agent.py", LEGACY)
    write(root / "clean.py", FIXED)
    return root


# --- terminal or not --------------------------------------------------------------------------


def test_on_a_terminal_output_is_coloured_with_progress_and_a_closing_summary(repo: Path) -> None:
    code, shown, _, _ = in_pty("check", cwd=repo)

    assert code == 1
    assert ANSI.search(shown), shown
    plain = ANSI.sub(b"", shown)
    assert b"agent.py:3:45: ACP001 " in plain
    assert b"2 files analysed" in plain  # the progress line
    assert re.search(rb"Found 1 finding in 1 file \(2 files scanned in \d+\.\d\ds\):\r\n", plain)
    assert re.search(rb"ACP001 1  initialize-slash-commands", plain)
    # One summary: the report leaves its own to the closing one on the same terminal.
    assert plain.count(b"Found ") == 1 and plain.count(b"fixable with `acp-migrate fix`") == 1
    assert plain.endswith(b"[*] 1 fixable with `acp-migrate fix`.\r\n")


def test_piped_output_has_no_colour_progress_or_closing_summary(repo: Path) -> None:
    result = acp_migrate("check", cwd=repo)

    assert result.returncode == 1
    assert not ANSI.search(result.stdout + result.stderr)
    assert result.stderr == b""
    assert result.stdout.decode().splitlines()[-2:] == [
        "Found 1 finding in 1 file.",
        "[*] 1 fixable with `acp-migrate fix`.",
    ]


def test_progress_follows_stderr_and_colour_follows_stdout(repo: Path) -> None:
    _, shown_out, _, err = in_pty("check", cwd=repo, stderr_tty=False)
    _, shown_err, out, _ = in_pty("check", cwd=repo, stdout_tty=False)

    assert ANSI.search(shown_out) and b"files scanned" not in shown_out and err == b""
    assert b"Found 1 finding in 1 file." in ANSI.sub(b"", shown_out)  # no closing summary: the report's
    assert not ANSI.search(out) and b"files scanned" in ANSI.sub(b"", shown_err)
    assert out.decode().splitlines()[-2] == "Found 1 finding in 1 file."  # the file keeps its summary


def test_quiet_and_no_color_on_a_terminal(repo: Path) -> None:
    _, quiet, _, _ = in_pty("check", "--quiet", cwd=repo)
    _, plain, _, _ = in_pty("check", "--no-color", cwd=repo)

    assert b"files scanned" not in ANSI.sub(b"", quiet) and b"files analysed" not in ANSI.sub(b"", quiet)
    assert b"Found" not in quiet and b"ACP001" in quiet
    assert not re.search(rb"\x1b\[[0-9;]*m", plain)  # only the progress bar's line erase is left
    assert b"files scanned" in plain


def test_fix_summary_on_a_terminal_counts_changed_files(repo: Path) -> None:
    code, shown, _, _ = in_pty("fix", cwd=repo)

    assert code == 0
    plain = ANSI.sub(b"", shown)
    assert b"Fixed agent.py\r\n" in plain
    assert re.search(rb"Fixed 1 finding in 1 file \(2 files scanned in \d+\.\d\ds\)\.\r\n$", plain)
    assert plain.count(b"Fixed 1 finding") == 1
    assert (repo / "agent.py").read_text() == FIXED


def test_check_fix_on_a_terminal_is_fix(repo: Path) -> None:
    code, shown, _, _ = in_pty("check", "--fix", "--show-fixes", cwd=repo)

    assert code == 0
    plain = ANSI.sub(b"", shown)
    assert b"Fixed 1 finding:\r\n- agent.py:\r\n    1 \xc3\x97 ACP001 (initialize-slash-commands)\r\n" in plain
    assert (repo / "agent.py").read_text() == FIXED


def test_an_output_file_leaves_the_terminal_the_closing_summary(repo: Path) -> None:
    code, shown, _, _ = in_pty("check", "-o", "report.txt", cwd=repo)

    assert code == 1
    plain = ANSI.sub(b"", shown)
    assert b"ACP001" not in plain.replace(b"ACP001 1  initialize", b"")  # the findings went to the file
    assert plain.count(b"Found 1 finding in 1 file (2 files scanned in ") == 1
    report = (repo / "report.txt").read_text()
    assert "\x1b" not in report and report.splitlines()[0].startswith("agent.py:3:45: ACP001 ")
    assert report.splitlines()[-2:] == ["Found 1 finding in 1 file.", "[*] 1 fixable with `acp-migrate fix`."]


def test_diff_is_coloured_on_a_terminal_and_plain_when_piped(repo: Path) -> None:
    _, shown, _, _ = in_pty("diff", "agent.py", cwd=repo)
    piped = acp_migrate("diff", "agent.py", cwd=repo)

    assert b"\x1b[31m-CAPS = AgentCapabilities(load_session=True, slash_commands=[])\x1b[0m" in shown
    assert not ANSI.search(piped.stdout)
    assert piped.stdout.startswith(b"--- a/agent.py\n+++ b/agent.py\n")


# --- output formats through the executable ----------------------------------------------------


def test_github_and_sarif_formats(repo: Path) -> None:
    github = acp_migrate("check", "--output-format", "github", cwd=repo)
    sarif = acp_migrate("check", "--output-format", "sarif", cwd=repo)
    statistics = acp_migrate("check", "--statistics", cwd=repo)

    assert github.returncode == 1
    assert github.stdout.decode().startswith(
        "::error file=agent.py,line=3,col=45,endLine=3,endColumn=62,title=ACP001::"
    )
    assert sarif.returncode == 1
    log = json.loads(sarif.stdout)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["ACP001"]
    assert statistics.stdout.decode().splitlines()[0] == "1\tACP001\t[*] initialize-slash-commands"


# --- exit code 2: configuration and options -----------------------------------------------------


def test_an_unknown_config_key_exits_2_naming_key_and_file(repo: Path) -> None:
    config = write(repo / "pyproject.toml", "[tool.acp-migrate]\nextend_exclude = ['x']\n")

    for command in ("check", "diff", "fix"):
        result = acp_migrate(command, cwd=repo)
        assert result.returncode == 2
        assert result.stderr.decode().splitlines() == [
            f"error: {config}: [tool.acp-migrate] unknown key 'extend_exclude' (did you mean 'extend-exclude'?)"
        ]
    assert (repo / "agent.py").read_text() == LEGACY  # fix did not run


def test_every_problem_of_the_flags_and_the_file_is_reported_at_once(repo: Path) -> None:
    config = write(repo / "pyproject.toml", "[tool.acp-migrate]\nselect = ['ACP9', 'ACP001']\ncolour = 1\n")

    result = acp_migrate("fix", "--ignore", "ACP8", "--runtime-import", "a b", cwd=repo)

    assert result.returncode == 2
    lines = result.stderr.decode().splitlines()
    assert [line.split(": ")[1] for line in lines[:2]] == ["--runtime-import", "--ignore"]
    assert [line.split("] ", 1)[1].split(" (")[0] for line in lines[2:]] == [
        "unknown key 'colour'",
        "'select': unknown rule code 'ACP9'",
    ]
    assert all(line.startswith(f"error: {config}: ") for line in lines[2:])
    assert (repo / "agent.py").read_text() == LEGACY  # fix did not run


def test_prefixes_and_all_select_rules(repo: Path) -> None:
    write(repo / "pyproject.toml", "[tool.acp-migrate]\nselect = ['ACP00']\nignore = ['ACP001']\n")

    from_file = acp_migrate("check", cwd=repo)
    everything = acp_migrate("check", "--select", "ALL", cwd=repo)
    specific = acp_migrate("check", "--select", "ACP001", "--ignore", "ACP", cwd=repo)

    assert (from_file.returncode, from_file.stdout) == (0, b"All checks passed.\n")
    assert everything.returncode == 1 and b"ACP001" in everything.stdout
    assert specific.returncode == 1 and b"ACP001" in specific.stdout  # the more specific selector wins


def test_verbose_names_the_configuration_file_used(repo: Path) -> None:
    config = write(repo / "pyproject.toml", "[tool.acp-migrate]\nignore = ['ACP006']\n")
    (repo / "sub").mkdir()

    result = acp_migrate("check", "--verbose", "../agent.py", cwd=repo / "sub")

    assert result.returncode == 1
    lines = result.stderr.decode().splitlines()
    assert lines[0] == f"acp-migrate: configuration: {config}"
    assert lines[1].startswith("acp-migrate: no target SDK: ")
    assert lines[2].startswith("acp-migrate: rules: ACP001, ") and "ACP006" not in lines[2]
    assert re.fullmatch(r"acp-migrate: 1 file scanned in \d+\.\d\ds", lines[3])


def test_a_bad_config_value_exits_2(repo: Path) -> None:
    write(repo / "pyproject.toml", "[tool.acp-migrate]\nrespect-gitignore = 3\n")

    result = acp_migrate("check", cwd=repo)

    assert result.returncode == 2
    assert "'respect-gitignore': Input should be a valid boolean" in result.stderr.decode()


def test_config_is_found_walking_up_and_flags_win(repo: Path) -> None:
    write(repo / "pyproject.toml", "[tool.acp-migrate]\nignore = ['ACP001']\n")
    (repo / "sub").mkdir()

    from_file = acp_migrate("check", "../agent.py", cwd=repo / "sub")
    flag = acp_migrate("check", "../agent.py", "--select", "ACP001", cwd=repo / "sub")
    other = write(repo / "strict.toml", "select = ['ACP001']\n")
    config_flag = acp_migrate("check", "agent.py", "--config", str(other), cwd=repo)
    isolated = acp_migrate("check", "agent.py", "--isolated", cwd=repo)

    assert from_file.returncode == 0, from_file.stdout.decode()
    assert flag.returncode == 1 and b"ACP001" in flag.stdout
    assert config_flag.returncode == 1 and isolated.returncode == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "--select", "ACP999"], "--select: unknown rule code 'ACP999'"),
        (["check", "--runtime-import", "a b"], "--runtime-import: 'a b' is not a dotted module name"),
        (["check", "--statistics", "--output-format", "sarif"], "--statistics works with"),
        (["check", "-", "agent.py"], "cannot be combined"),
        (["check", "--stdin-filename", "x.py"], "--stdin-filename needs the path `-`"),
        (["check", "--config", "missing.toml"], "no such configuration file"),
        (["rules", "ACP999"], "unknown rule code 'ACP999'"),
        (["check", "--select", "ACP9"], "--select: unknown rule code 'ACP9'"),
        (["check", "--fix", "--output-format", "json"], "--fix works with"),
        (["check", "--exit-non-zero-on-fix"], "needs --fix"),
        (["check", "-q", "-v"], "cannot be combined"),
        (["check", "--frobnicate"], "No such option: --frobnicate"),
    ],
)
def test_bad_options_exit_2(repo: Path, args: list[str], message: str) -> None:
    result = acp_migrate(*args, cwd=repo)

    assert result.returncode == 2
    assert message in result.stderr.decode()


# --- .gitignore --------------------------------------------------------------------------------


def test_gitignored_files_are_skipped_unless_told(repo: Path) -> None:
    write(repo / ".gitignore", "generated/\n")
    write(repo / "generated/old.py", LEGACY)

    default = acp_migrate("check", "--output-format", "json", cwd=repo)
    everything = acp_migrate("check", "--output-format", "json", "--no-respect-gitignore", cwd=repo)
    explicit = acp_migrate("check", "--output-format", "json", "generated/old.py", cwd=repo)
    forced = acp_migrate("check", "--output-format", "json", "--force-exclude", "generated/old.py", cwd=repo)

    assert {f["path"] for f in json.loads(default.stdout)} == {"agent.py"}
    assert {f["path"] for f in json.loads(everything.stdout)} == {"agent.py", "generated/old.py"}
    assert {f["path"] for f in json.loads(explicit.stdout)} == {"generated/old.py"}
    assert (forced.returncode, json.loads(forced.stdout)) == (0, [])


def test_exclude_from_config_and_force_exclude_for_explicit_files(repo: Path) -> None:
    write(repo / "pyproject.toml", "[tool.acp-migrate]\nextend-exclude = ['legacy']\n")
    write(repo / "legacy/old.py", LEGACY)

    walked = acp_migrate("check", "--output-format", "json", cwd=repo)
    explicit = acp_migrate("check", "--output-format", "json", "legacy/old.py", cwd=repo)
    forced = acp_migrate("check", "--output-format", "json", "--force-exclude", "legacy/old.py", cwd=repo)

    assert {f["path"] for f in json.loads(walked.stdout)} == {"agent.py"}
    assert {f["path"] for f in json.loads(explicit.stdout)} == {"legacy/old.py"}
    assert json.loads(forced.stdout) == []


# --- suppressions --------------------------------------------------------------------------------


def test_suppressions_silence_check_and_fix_and_unused_ones_are_reported(repo: Path) -> None:
    suppressed = LEGACY.replace("slash_commands=[])", "slash_commands=[])  # acp-migrate: ignore[ACP001]")
    write(repo / "agent.py", suppressed)
    write(repo / "clean.py", FIXED.replace("load_session=True)", "load_session=True)  # acp-migrate: ignore"))

    check = acp_migrate("check", cwd=repo)
    fix = acp_migrate("fix", cwd=repo)
    unused = acp_migrate("check", "--report-unused-suppressions", cwd=repo)

    assert (check.returncode, check.stdout) == (0, b"All checks passed.\n")
    assert fix.returncode == 0 and (repo / "agent.py").read_text() == suppressed
    assert unused.returncode == 1
    assert unused.stdout.decode().splitlines()[0].startswith("clean.py:3:46: ACP100 unused suppression")


# --- stdin ------------------------------------------------------------------------------------


def test_diff_from_stdin(repo: Path) -> None:
    result = acp_migrate("diff", "-", "--stdin-filename", "pkg/agent.py", cwd=repo, stdin=LEGACY.encode())
    unnamed = acp_migrate("diff", "-", cwd=repo, stdin=LEGACY.encode())

    assert result.returncode == 1
    assert result.stdout.startswith(b"--- a/pkg/agent.py\n+++ b/pkg/agent.py\n@@ ")
    assert b"+CAPS = AgentCapabilities(load_session=True)\n" in result.stdout
    assert unnamed.returncode == 1 and unnamed.stdout.startswith(b"--- a/-\n")


def test_fix_from_stdin_writes_the_code_to_stdout(repo: Path) -> None:
    crlf = LEGACY.replace("\n", "\r\n").encode()

    fixed = acp_migrate("fix", "-", "--stdin-filename", "agent.py", cwd=repo, stdin=crlf)
    clean = acp_migrate("fix", "-", "--stdin-filename", "agent.py", cwd=repo, stdin=FIXED.encode())
    broken = acp_migrate("fix", "-", "--stdin-filename", "agent.py", cwd=repo, stdin=b"slash_commands = (\n")

    assert (fixed.returncode, fixed.stdout) == (0, FIXED.replace("\n", "\r\n").encode())
    assert (clean.returncode, clean.stdout) == (0, FIXED.encode())
    assert broken.returncode == 2 and broken.stdout == b"slash_commands = (\n"
    assert broken.stderr.decode().startswith("agent.py: error: syntax error")
    assert (repo / "agent.py").read_text() == LEGACY  # the named file is not touched


def test_fix_from_stdin_reports_what_is_left_on_stderr(repo: Path) -> None:
    source = LEGACY.replace("slash_commands=[]", "slash_commands=COMMANDS")

    result = acp_migrate("fix", "-", "--stdin-filename", "agent.py", cwd=repo, stdin=source.encode())

    assert result.returncode == 1
    # The list cannot be moved (no agent class): it stays, with a TODO above it.
    assert b"# acp-migrate: TODO" in result.stdout and b"slash_commands=COMMANDS" in result.stdout
    assert re.match(r"agent\.py:3:\d+: ACP005 ", result.stderr.decode())


def test_stdin_uses_the_configuration_of_the_stdin_filename(repo: Path) -> None:
    write(repo / "pkg/pyproject.toml", "[tool.acp-migrate]\nignore = ['ACP001']\nextend-exclude = ['vendored']\n")

    ignored = acp_migrate("check", "-", "--stdin-filename", "pkg/agent.py", cwd=repo, stdin=LEGACY.encode())
    excluded = acp_migrate(
        "fix", "-", "--stdin-filename", "pkg/vendored/a.py", "--select", "ACP001", "--force-exclude",
        cwd=repo, stdin=LEGACY.encode(),
    )  # fmt: skip

    assert (ignored.returncode, ignored.stdout) == (0, b"All checks passed.\n")
    assert (excluded.returncode, excluded.stdout) == (0, LEGACY.encode())


# --- rules ------------------------------------------------------------------------------------


def test_rules_lists_and_documents(repo: Path) -> None:
    listing = acp_migrate("rules", cwd=repo)
    doc = acp_migrate("rules", "ACP001", cwd=repo)
    as_json = acp_migrate("rules", "--output-format", "json", cwd=repo)

    assert listing.returncode == 0
    assert re.search(r"^ACP001\s+initialize-slash-commands\s+yes\s+", listing.stdout.decode(), re.MULTILINE)
    assert doc.returncode == 0 and doc.stdout.decode().startswith("# ACP001 initialize-slash-commands\n")
    assert "caps = Caps(load_session=True)\n" in doc.stdout.decode()
    assert {"code", "name", "fixable", "summary"} <= json.loads(as_json.stdout)[0].keys()
