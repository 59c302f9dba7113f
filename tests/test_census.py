"""The census (ACP011, engine/analysis/census.py) over real runs: discovery walks the
suffixes a census rule declares and no others, the census imports no LibCST, a `fix`
that migrates the agent exits 1 while a snapshot still records the old list, every
negative golden case stays clean and byte-identical, and a data file too large to read
whole is clean unless it holds a token."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.command import run_acp_migrate

from acp_migrate.api import check_paths

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "legacy_agent"
CENSUS_CASES = ("census-data-files", "census-notebook", "census-rst-code-block", "census-doctest")


def _census_project(root: Path) -> Path:
    for case in CENSUS_CASES:
        shutil.copytree(GOLDEN / case / "input", root / case)
    # Suffixes no rule declares: never read, whatever they hold.
    (root / "notes.txt").write_text("slashCommands: plan, web\n")
    (root / "agent.toml").write_text('slash_commands = ["plan"]\n')
    return root


def test_check_walks_the_census_suffixes_and_no_others(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(_census_project(tmp_path))
    report = check_paths(["."], isolated=True)
    reported = sorted((f.path.replace(os.sep, "/"), f.line, f.code) for f in report.findings)
    assert reported == [
        ("census-data-files/agent.yaml", 4, "ACP011"),
        ("census-data-files/tests/__snapshots__/test_agent.ambr", 6, "ACP011"),
        ("census-data-files/tests/fixtures/initialize.json", 5, "ACP011"),
        ("census-doctest/agent.py", 4, "ACP011"),
        ("census-notebook/explore.ipynb", 19, "ACP011"),
        ("census-notebook/explore.ipynb", 20, "ACP011"),
        ("census-rst-code-block/docs/guide.rst", 12, "ACP011"),
    ]
    assert {f.message for f in report.findings} == {"legacy mention not migrated"}


def test_the_census_imports_no_libcst(tmp_path: Path) -> None:
    _census_project(tmp_path)
    script = (
        "import sys\n"
        "from acp_migrate.api import check_paths\n"
        "report = check_paths(['.'], isolated=True)\n"
        "print(len(report.findings), 'libcst' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], check=False, cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["7", "False"]


def test_fix_exits_1_while_a_snapshot_records_the_list_it_moved(tmp_path: Path) -> None:
    copy = tmp_path / "legacy_agent"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    snapshots = copy / "tests" / "__snapshots__"
    snapshots.mkdir()
    shutil.copy(GOLDEN / "census-data-files" / "input" / "tests" / "__snapshots__" / "test_agent.ambr", snapshots)

    fixed = run_acp_migrate("fix", ".", cwd=copy, text=True)

    assert fixed.returncode == 1, fixed.stdout + fixed.stderr
    assert "tests/__snapshots__/test_agent.ambr:6:8: ACP011 legacy mention not migrated" in fixed.stdout
    assert "Fixed agent.py" in fixed.stdout  # the rest of the migration is done
    (snapshots / "test_agent.ambr").unlink()
    again = run_acp_migrate("fix", ".", cwd=copy, text=True)
    assert again.returncode == 0, again.stdout + again.stderr


NEGATIVES = sorted(case.name for case in GOLDEN.iterdir() if case.name.startswith("neg-"))


@pytest.mark.parametrize("case", NEGATIVES)
def test_a_negative_case_is_clean_and_fix_leaves_it_byte_identical(tmp_path: Path, case: str) -> None:
    copy = tmp_path / case
    shutil.copytree(GOLDEN / case / "input", copy)
    before = {path: path.read_bytes() for path in sorted(copy.rglob("*")) if path.is_file()}

    checked = run_acp_migrate("check", "--isolated", ".", cwd=copy, text=True)
    fixed = run_acp_migrate("fix", "--isolated", ".", cwd=copy, text=True)

    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert {path: path.read_bytes() for path in sorted(copy.rglob("*")) if path.is_file()} == before


def test_a_data_file_too_large_to_read_is_clean_unless_it_holds_a_token(tmp_path: Path, monkeypatch) -> None:
    from acp_migrate.engine.execution.files import MAX_READ_BYTES

    monkeypatch.chdir(tmp_path)
    # The token straddles a chunk of the scan: it is found all the same.
    head = b"[" + b"1," * ((1 << 20) // 2 - 4) + b'"slashC'
    big = head + b'ommands", ' + b"0," * (MAX_READ_BYTES // 2) + b"0]"
    (tmp_path / "data.json").write_bytes(big.replace(b"slashCommands", b"slashCommand_"))
    assert check_paths(["."], isolated=True).exit_code == 0

    (tmp_path / "data.json").write_bytes(big)
    report = check_paths(["."], isolated=True)
    assert [(error.path, error.reason.split(":")[0]) for error in report.errors] == [
        ("data.json", "too large to analyse")
    ]
