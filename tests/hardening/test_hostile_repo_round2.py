"""A hostile repository, round 2 (issue 33): one-line bombs, what the parser survives,
git refusing the repository, output forging CI commands, bytes kept whatever the codec.
Each attack runs the command under a timeout and an address-space limit (`run_guarded`),
so that a regression fails the test instead of hanging or exhausting CI."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from hardening_support import CLI, HANG_GUARD, LEGACY_SNIPPETS, REPO, holding_fifo, limit_memory, run_guarded, snapshot
from support.processes import session_ended

pytestmark = pytest.mark.slow  # the installed command, in processes

# An agent with its own setup handlers: fix writes the vendored shim beside it.
AGENT = (REPO / "golden/rewire-same-class/input/agent.py").read_text()
SHIM = "acp_command_advertiser.py"
# An agent whose setup handlers are inherited from `base.py` (read to find them).
INHERITING_AGENT = (
    (REPO / "golden/rewire-inherited-handlers-other-module/input/pool/agent.py")
    .read_text()
    .replace("from .base import", "from base import")
)


def _no_crash(result) -> None:
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr
    assert "panicked" not in result.stderr and "backtrace" not in result.stderr, result.stderr


# -- bounded analysis ---------------------------------------------------------------------


@pytest.mark.parametrize("command", ["check", "fix"])
def test_statements_on_one_line_cost_what_they_would_on_many(tmp_path: Path, command: str) -> None:
    # 130 kB on one line: the hollowing joined the line once per statement (17 GB).
    (tmp_path / "agent.py").write_text(LEGACY_SNIPPETS[0] + "a = 1; " * 18_000 + "a\n")

    result = run_guarded(command, "agent.py", cwd=tmp_path)

    _no_crash(result)
    assert result.returncode == 1 and "agent.py:5:" in result.stdout, result


def test_a_file_the_parser_cannot_afford_is_refused_before_parsing(tmp_path: Path) -> None:
    # 1.9 MB in one statement, under the byte limit: LibCST's native parser aborted the
    # worker on memory, and the run tried it again alone.
    big = LEGACY_SNIPPETS[0] + "x = [" + "1, " * 630_000 + "]\n"
    (tmp_path / "big.py").write_text(big)

    result = run_guarded("fix", "big.py", cwd=tmp_path)

    _no_crash(result)
    assert result.returncode == 2, result
    (line,) = result.stderr.splitlines()
    assert line.startswith("big.py: error: too large to analyse: about 1,2"), line
    assert line.endswith("split the file, or exclude it (`extend-exclude`)"), line
    assert (tmp_path / "big.py").read_text() == big


# -- a stop ends the run at once ------------------------------------------------------------


@pytest.mark.parametrize("to_group", [True, False], ids=["sigterm", "sigterm to the command"])
def test_sigterm_does_not_wait_for_the_file_being_analysed(tmp_path: Path, to_group: bool) -> None:
    # A big agent whose base module is looked up (a FIFO: the moment the analysis reaches
    # the class shows) and seconds of analysis after it; the run used to finish that
    # file, and write it, before it ended.
    agent = INHERITING_AGENT + "\n\n" + LEGACY_SNIPPETS[1] + "".join(f"v{i} = [{i}]\n" for i in range(30_000))
    (tmp_path / "agent.py").write_text(agent)
    os.mkfifo(tmp_path / "base.py")
    process = subprocess.Popen(
        [str(CLI), "fix", "agent.py"], cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=limit_memory,
    )  # fmt: skip
    with holding_fifo(process, tmp_path / "base.py") as running:
        assert running, process.communicate()
    (os.killpg if to_group else os.kill)(process.pid, signal.SIGTERM)

    _, errors = process.communicate(timeout=HANG_GUARD)
    assert process.returncode == 143 and "Traceback" not in errors, (process.returncode, errors)
    assert session_ended(process.pid), "worker processes outlived the stopped fix"
    assert (tmp_path / "agent.py").read_text() == agent  # the file was not finished
    assert sorted(os.listdir(tmp_path)) == ["agent.py", "base.py"]  # no temp file


# -- git refusing the repository ----------------------------------------------------------


def _foreign_repository(tmp_path: Path) -> Path:
    """A repository owned by another user, whose .gitignore ignores `generated.py`."""
    if os.geteuid() != 0:
        pytest.skip("making a repository another user's needs root")
    repository = tmp_path / "repository"
    repository.mkdir()
    subprocess.run(["git", "init", "-q", "."], cwd=repository, check=True, timeout=HANG_GUARD)
    (repository / ".gitignore").write_text("generated.py\n")
    (repository / "generated.py").write_text(LEGACY_SNIPPETS[0])
    for folder, folders, files in os.walk(repository):
        for name in [folder, *(os.path.join(folder, entry) for entry in folders + files)]:
            os.lchown(name, 65534, 65534)
    return repository


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
@pytest.mark.parametrize("command", ["check", "fix"])
def test_a_repository_git_refuses_stops_the_run(tmp_path: Path, command: str) -> None:
    repository = _foreign_repository(tmp_path)
    before = snapshot(repository)

    result = run_guarded(command, ".", cwd=repository)

    _no_crash(result)
    assert result.returncode == 2, result
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"error: git cannot read the repository at {repository}, so its ignore files cannot be honoured:"
        f" detected dubious ownership in repository at '{repository}' (trust it with"
        f" `git config --global --add safe.directory {repository}`, or run with --no-respect-gitignore)"
    ]
    assert snapshot(repository) == before


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_refused_repository_is_walked_when_its_ignore_files_are_waived(tmp_path: Path) -> None:
    repository = _foreign_repository(tmp_path)

    result = run_guarded("check", "--no-respect-gitignore", ".", cwd=repository)

    assert result.returncode == 1 and "generated.py:" in result.stdout, result


# -- output that forges CI commands ---------------------------------------------------------

FORGING_NAMES = ("::add-mask::x.py", "::stop-commands::tok.py", " ::warning::sp.py")


@pytest.mark.parametrize("command", ["check", "fix"])
def test_no_line_of_text_output_is_a_workflow_command(tmp_path: Path, command: str) -> None:
    for name in FORGING_NAMES:
        (tmp_path / name).write_text(LEGACY_SNIPPETS[0])
    (tmp_path / "::broken::b.py").write_text("def broken(:\n    slash_commands = 1\n")

    result = run_guarded(command, ".", cwd=tmp_path)

    _no_crash(result)
    assert result.returncode == 2, result
    lines = (result.stdout + result.stderr).splitlines()
    assert not [line for line in lines if line.lstrip().startswith("::")], lines
    assert "./::broken::b.py: error: " in result.stderr
    if command == "check":
        assert "./::add-mask::x.py:5:49: ACP001 " in result.stdout


def test_the_github_format_escapes_control_characters(tmp_path: Path) -> None:
    (tmp_path / "bell\x07osc\x1b]0;title\x07.py").write_text(LEGACY_SNIPPETS[0])
    (tmp_path / "per%cent,com:ma.py").write_text(LEGACY_SNIPPETS[0])

    result = run_guarded("check", "--output-format", "github", ".", cwd=tmp_path)

    assert result.returncode == 1, result
    assert "\x07" not in result.stdout and "\x1b" not in result.stdout
    files = sorted(line.split("file=", 1)[1].split(",line=", 1)[0] for line in result.stdout.splitlines())
    assert files == ["bell\\x07osc\\x1b]0;title\\x07.py", "per%25cent%2Ccom%3Ama.py"]


def test_the_json_report_is_utf8_whatever_the_file_names(tmp_path: Path) -> None:
    path = Path(os.fsdecode(bytes(tmp_path) + b"/caf\xe9.py"))
    path.write_text(LEGACY_SNIPPETS[0])

    result = run_guarded("check", "--output-format", "json", ".", cwd=tmp_path, text=False)

    assert result.returncode == 1, result
    text = result.stdout.decode("utf-8")  # strict
    assert "\\udc" not in text
    (finding,) = json.loads(text)
    assert finding["path"] == "caf\\xe9.py"


# -- bytes kept, or the file refused ----------------------------------------------------------


def test_a_codec_that_does_not_give_the_bytes_back_is_refused(tmp_path: Path) -> None:
    # unicode_escape decodes a line break but encodes it as `\n`: fix wrote one line.
    source = ("# coding: unicode_escape\n" + LEGACY_SNIPPETS[0]).encode()
    (tmp_path / "escaped.py").write_bytes(source)

    result = run_guarded("fix", ".", cwd=tmp_path)

    _no_crash(result)
    assert result.returncode == 2, result
    assert result.stderr.splitlines() == [
        "escaped.py: error: unicode-escape does not encode the file's text back to its bytes (fix could not keep"
        " them): re-encode the file as UTF-8 and drop its coding cookie"
    ]
    assert (tmp_path / "escaped.py").read_bytes() == source


@pytest.mark.parametrize("codec", ["rot13", "hex", "base64"])
def test_a_cookie_naming_no_text_encoding_is_one_clear_error(tmp_path: Path, codec: str) -> None:
    (tmp_path / "odd.py").write_text(f"# coding: {codec}\n" + LEGACY_SNIPPETS[0])

    result = run_guarded("check", ".", cwd=tmp_path)

    _no_crash(result)
    assert result.returncode == 2, result
    assert result.stderr.startswith(f"odd.py: error: the coding cookie names '{codec}', which is not a text encoding")
    assert result.stderr.rstrip().endswith("name a text encoding, such as utf-8")


def test_a_file_named_near_the_limit_is_fixed(tmp_path: Path) -> None:
    name = "a" * 240 + ".py"  # its temp name, `.NAME.PID.RANDOM.acp-migrate.tmp`, was over 255 bytes
    (tmp_path / name).write_text(AGENT)

    result = run_guarded("fix", ".", cwd=tmp_path)

    _no_crash(result)
    assert result.returncode in (0, 1) and f"Fixed {name}" in result.stdout, result
    assert (tmp_path / name).read_text() != AGENT and (tmp_path / SHIM).exists()
    assert sorted(snapshot(tmp_path)) == sorted([name, SHIM])


def test_a_file_that_cannot_be_written_leaves_its_shim_unwritten(tmp_path: Path) -> None:
    agent = tmp_path / "agent.py"
    agent.write_text(AGENT)
    agent.chmod(0o444)

    result = run_guarded("fix", ".", cwd=tmp_path)

    _no_crash(result)
    assert result.returncode == 2, result
    assert result.stderr.splitlines() == ["agent.py: error: permission denied: file is read-only"]
    assert snapshot(tmp_path) == {"agent.py": AGENT.encode()}
