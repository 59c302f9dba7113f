"""A file whose bytes do not decode (latin-1 without a coding cookie) but hold no legacy
token is a warning on stderr, the exit code unchanged (ruff warns and goes on); with a
legacy token in its bytes it stays an error (exit 2): something to migrate was not read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from acp_migrate import api
from acp_migrate.engine.execution import runner
from acp_migrate.engine.analysis.codemod import analyze_source
from acp_migrate.engine.execution.runner import run
from acp_migrate.results import FileOutcome, Mode, RunResult
from acp_migrate.findings import SourceError
from acp_migrate.report.text import render_errors
from test_cli_process import LEGACY, acp_migrate

LATIN1 = "# Copyright Société Générale, café crème\nVALUE = 'é'\n".encode("latin-1")
LATIN1_LEGACY = b"# caf\xe9\n" + LEGACY.encode()
WARNING = "latin.py: warning: cannot decode as utf-8 at line 1: invalid continuation byte"


def project(root: Path, *, legacy: bool = False) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "latin.py").write_bytes(LATIN1_LEGACY if legacy else LATIN1)
    (root / "clean.py").write_text("VALUE = 1\n")
    return root


def test_analysis_gives_a_warning_not_an_error() -> None:
    analysis = analyze_source(LATIN1, path="latin.py")
    assert analysis.warning == "cannot decode as utf-8 at line 1: invalid continuation byte"
    assert analysis.findings == [] and analysis.fixed_source is None
    # Also when unused suppressions are asked for: nothing in it could be read.
    assert analyze_source(LATIN1, path="latin.py", report_unused_suppressions=True).warning is not None


def test_with_a_legacy_token_it_stays_an_error() -> None:
    with pytest.raises(SourceError, match="cannot decode as utf-8 at line 1"):
        analyze_source(LATIN1_LEGACY, path="latin.py")


@pytest.mark.parametrize("source", [b"x = 1\0\n", b"# coding: nope-42\nx = 1\n"])
def test_binary_files_and_unknown_cookies_stay_errors(source: bytes) -> None:
    with pytest.raises(SourceError):
        analyze_source(source, path="f.py")


def test_warnings_follow_the_errors_on_stderr_and_leave_the_exit_code() -> None:
    result = RunResult(
        mode=Mode.CHECK,
        files=[FileOutcome(path="b.py", warning="cannot decode"), FileOutcome(path="a.py", error="is a directory")],
    )
    assert render_errors(result) == "a.py: error: is a directory\nb.py: warning: cannot decode\n"
    assert RunResult(mode=Mode.CHECK, files=[FileOutcome(path="b.py", warning="cannot decode")]).exit_code() == 0


@pytest.mark.parametrize("command", ["check", "diff", "fix"])
def test_cli_warns_and_exits_zero(tmp_path: Path, command: str) -> None:
    root = project(tmp_path / "p")
    result = acp_migrate(command, cwd=root)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stderr.decode().splitlines() == [WARNING]
    assert (root / "latin.py").read_bytes() == LATIN1
    if command == "check":
        assert result.stdout.decode() == "All checks passed.\n"


def test_cli_json_output_stays_clean(tmp_path: Path) -> None:
    result = acp_migrate("check", "--output-format", "json", cwd=project(tmp_path / "p"))
    assert (result.returncode, json.loads(result.stdout)) == (0, [])
    assert result.stderr.decode().splitlines() == [WARNING]


def test_cli_a_legacy_token_in_undecodable_bytes_exits_2(tmp_path: Path) -> None:
    result = acp_migrate("check", cwd=project(tmp_path / "p", legacy=True))
    assert result.returncode == 2
    assert result.stderr.decode().splitlines() == [WARNING.replace("warning", "error")]


def test_stdin_warns_too(tmp_path: Path) -> None:
    result = acp_migrate("check", "-", "--stdin-filename", "latin.py", cwd=tmp_path, stdin=LATIN1)
    assert result.returncode == 0
    assert result.stderr.decode().splitlines() == [WARNING]
    assert api.check_source(LATIN1, path="latin.py").warning is not None


@pytest.mark.parametrize("workers", [1, 2], ids=["here", "in batches"])
def test_the_warning_survives_screening_in_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    monkeypatch.setattr(runner, "POOL_MIN_WORK", 1)
    monkeypatch.chdir(project(tmp_path / "p"))
    result = run(Mode.CHECK, ["."], workers=workers)
    assert [(w.path, w.reason[:22]) for w in result.warnings] == [("latin.py", "cannot decode as utf-8")]
    assert (result.errors, result.exit_code()) == ([], 0)
