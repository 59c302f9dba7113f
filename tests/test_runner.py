"""Runner plumbing: per-file outcomes, error isolation, writes, exit codes.

A fake analysis (and prefilter) stands in for the real codemod so these tests pin the engine only:
`LEGACY` is a fixable finding (fix writes `MODERN`), `MANUAL` a finding left for a
person, `SYNTAX` a SourceError, `CRASH` a bug in a rule. Three fixes that claim more
than they do, for fix's postcondition: `HALFDONE` becomes `LEGACY`, `HIDES` becomes
`MANUAL`, `BREAKS` becomes `SYNTAX`.
"""

from __future__ import annotations

import os
import pickle
import stat
from pathlib import Path

import pytest

from acp_migrate.engine.execution import runner
from acp_migrate.engine.execution.runner import FileJob, display_path, process_file, run
from acp_migrate.results import Mode
from acp_migrate.findings import Finding, SourceAnalysis, SourceError


CLAIMS = {b"HALFDONE": b"LEGACY", b"HIDES": b"MANUAL", b"BREAKS": b"SYNTAX"}


def fake_analyze_source(source: bytes, *, path: str, fix: bool = True, **_options: object) -> SourceAnalysis:
    if b"CRASH" in source:
        raise RuntimeError("rule exploded\nsecond line")
    if b"SYNTAX" in source:
        raise SourceError("syntax error at line 1, column 1")
    findings, remaining = [], []
    for number, line in enumerate(source.split(b"\n"), start=1):
        if b"LEGACY" in line or any(claim in line for claim in CLAIMS):
            findings.append(_finding(path, number, "ACP001", "legacy slash_commands", fixable=True))
        if b"MANUAL" in line:
            manual = _finding(path, number, "ACP005", "commands are no longer advertised", fixable=False)
            findings.append(manual)
            remaining.append(manual)
    fixed = source.replace(b"LEGACY", b"MODERN")
    for claim, written in CLAIMS.items():
        fixed = fixed.replace(claim, written)
    return SourceAnalysis(
        findings=findings, fixed_source=fixed if fix and fixed != source else None, remaining=remaining
    )


def _finding(path: str, line: int, code: str, message: str, *, fixable: bool) -> Finding:
    return Finding(
        path=path, line=line, column=1, end_line=line, end_column=7, code=code, message=message, fixable=fixable
    )


@pytest.fixture(autouse=True)
def fake_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "analyze_source", fake_analyze_source)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(path: Path, content: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return path


def test_check_collects_sorted_findings_with_relative_paths(project: Path) -> None:
    write(project / "pkg/b.py", b"x\nLEGACY\n")
    write(project / "a.py", b"MANUAL\nLEGACY\n")
    write(project / "clean.py", b"x = 1\n")

    result = run(Mode.CHECK, [])

    assert [(f.path, f.line, f.code) for f in result.findings] == [
        ("a.py", 1, "ACP005"),
        ("a.py", 2, "ACP001"),
        (os.path.join("pkg", "b.py"), 2, "ACP001"),
    ]
    assert [o.path for o in result.files] == ["a.py", "clean.py", os.path.join("pkg", "b.py")]
    assert result.errors == []
    assert result.exit_code() == 1


def test_check_of_clean_files_exits_0(project: Path) -> None:
    write(project / "a.py", b"x = 1\n")

    assert run(Mode.CHECK, ["."]).exit_code() == 0


def test_check_and_diff_never_write(project: Path) -> None:
    legacy = write(project / "a.py", b"LEGACY\n")

    assert run(Mode.CHECK, []).exit_code() == 1
    diff = run(Mode.DIFF, [])

    assert legacy.read_bytes() == b"LEGACY\n"
    assert diff.exit_code() == 1
    [outcome] = diff.changed_files
    assert (outcome.original, outcome.fixed_source) == (b"LEGACY\n", b"MODERN\n")


def test_diff_with_nothing_to_change_exits_0_even_with_manual_findings(project: Path) -> None:
    write(project / "a.py", b"MANUAL\n")

    assert run(Mode.DIFF, []).exit_code() == 0


def test_one_bad_file_never_stops_the_run(project: Path) -> None:
    write(project / "a_broken.py", b"SYNTAX LEGACY\n")
    write(project / "b_legacy.py", b"LEGACY\n")
    write(project / "c_crash.py", b"CRASH\n")
    write(project / "d_legacy.py", b"LEGACY\n")

    result = run(Mode.FIX, [])

    assert [(e.path, e.reason) for e in result.errors] == [
        ("a_broken.py", "syntax error at line 1, column 1"),
        ("c_crash.py", "internal error: RuntimeError: rule exploded"),
    ]
    assert (project / "b_legacy.py").read_bytes() == b"MODERN\n"
    assert (project / "d_legacy.py").read_bytes() == b"MODERN\n"
    assert result.exit_code() == 2


def test_errors_win_over_findings_in_every_mode(project: Path) -> None:
    write(project / "a.py", b"LEGACY\nMANUAL\n")
    for mode in Mode:
        assert run(mode, ["a.py", "missing.py"]).exit_code() == 2


def test_missing_path_alone_is_an_error_not_a_clean_run(project: Path) -> None:
    result = run(Mode.CHECK, ["missing.py"])

    assert [(e.path, e.reason) for e in result.errors] == [("missing.py", "no such file or directory")]
    assert result.exit_code() == 2


def test_fix_writes_and_reports_what_is_left(project: Path) -> None:
    write(project / "a.py", b"LEGACY\nMANUAL\n")
    write(project / "b.py", b"LEGACY\n")

    result = run(Mode.FIX, [])

    assert [o.path for o in result.files if o.written] == ["a.py", "b.py"]
    assert [(f.path, f.code) for f in result.remaining] == [("a.py", "ACP005")]
    assert result.exit_code() == 1
    assert (project / "a.py").read_bytes() == b"MODERN\nMANUAL\n"


def test_fix_with_nothing_left_exits_0_and_a_second_fix_changes_nothing(project: Path) -> None:
    write(project / "a.py", b"LEGACY\n")

    first = run(Mode.FIX, [])
    second = run(Mode.FIX, [])

    assert first.exit_code() == 0
    assert [o.written for o in first.files] == [True]
    assert second.exit_code() == 0
    assert [o.written for o in second.files] == [False]


def test_fix_reads_back_what_it_wrote_and_exit_0_means_nothing_is_left_there(project: Path) -> None:
    write(project / "done.py", b"LEGACY\n")
    write(project / "half.py", b"HALFDONE\n")  # written, and still legacy when read back
    write(project / "hidden.py", b"HIDES\n")  # written, and read back holds work nobody was told of
    write(project / "listed.py", b"HIDES\nMANUAL\n")  # the work left was listed: said once

    result = run(Mode.FIX, [])

    assert all(o.written for o in result.files)
    assert [(f.path, f.code, f.fixable) for f in result.remaining] == [
        ("half.py", "ACP001", False),
        ("hidden.py", "ACP005", False),
        ("listed.py", "ACP005", False),
    ]
    half, hidden = result.remaining[:2]
    assert half.message == "still there after fix: legacy slash_commands"
    assert hidden.message == "still there after fix: commands are no longer advertised"
    assert result.remaining[2].message == "commands are no longer advertised"
    assert result.exit_code() == 1
    assert run(Mode.FIX, ["done.py"]).exit_code() == 0


def test_fix_that_wrote_what_it_cannot_read_back_is_an_error(project: Path) -> None:
    write(project / "a.py", b"BREAKS\n")

    result = run(Mode.FIX, [])

    [outcome] = result.files
    assert outcome.written and outcome.error == "fix wrote a file it cannot read back: syntax error at line 1, column 1"
    assert result.exit_code() == 2


def test_fix_keeps_the_file_mode(project: Path) -> None:
    script = write(project / "agent.py", b"LEGACY\n")
    script.chmod(0o755)

    run(Mode.FIX, [])

    assert stat.S_IMODE(script.stat().st_mode) == 0o755


def test_fix_of_a_read_only_file_is_an_error_and_writes_nothing(project: Path) -> None:
    # A run is never half-applied: one file that cannot be written keeps the others too.
    locked = write(project / "locked.py", b"LEGACY\n")
    locked.chmod(0o444)
    write(project / "open.py", b"LEGACY\n")

    result = run(Mode.FIX, [])

    assert [(e.path, e.reason) for e in result.errors] == [
        ("locked.py", "permission denied: file is read-only"),
        ("open.py", "not written: fix writes all of a run's files or none, and locked.py cannot be written"),
    ]  # fmt: skip
    assert locked.read_bytes() == b"LEGACY\n"
    assert (project / "open.py").read_bytes() == b"LEGACY\n"
    assert not [path for path in os.listdir(project) if path.endswith(".tmp")]  # the staged file removed
    assert not any(outcome.written for outcome in result.files)
    assert result.exit_code() == 2


def test_an_explicit_device_is_an_error_not_a_hang(project: Path) -> None:
    write(project / "a.py", b"x\n")

    result = run(Mode.CHECK, ["a.py", os.devnull])

    assert [e.reason for e in result.errors] == ["not a regular file"]
    assert result.exit_code() == 2


def test_paths_are_shown_relative_to_the_current_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "project/pkg/a.py", b"LEGACY\n")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")

    relative = run(Mode.CHECK, ["../project"])
    absolute = run(Mode.CHECK, [str(tmp_path / "project/pkg/a.py")])

    expected = os.path.join("..", "project", "pkg", "a.py")
    assert [f.path for f in relative.findings] == [expected]
    assert [f.path for f in absolute.findings] == [expected]


@pytest.mark.parametrize(
    "path",
    [
        "/srv/project/pkg/a.py",
        "/srv/project/a.py",
        "/srv/b.py",
        "/c.py",
        "/srv/project/pkg/",
        "/srv/other/x/y.py",
        "/srv/work/here/d.py",
        "/srv/work/here/sub/e.py",
    ],
)
def test_display_path_is_the_relative_path(path: str) -> None:
    cwd = os.path.join(os.sep, "srv", "work", "here")
    path = path.replace("/", os.sep)
    assert display_path(path, cwd) == os.path.relpath(path, cwd)


def test_display_path_falls_back_to_absolute_when_there_is_no_relative_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def other_drive(path: str, start: str) -> str:
        raise ValueError("path is on mount 'D:', start on mount 'C:'")

    monkeypatch.setattr(runner.os.path, "relpath", other_drive)
    # Folders no other test asks about: the runner remembers each folder's answer.
    path, base = str(tmp_path / "somewhere" / "a.py"), str(tmp_path / "elsewhere")

    assert display_path(path, base) == path


def test_runs_are_deterministic(project: Path) -> None:
    for name in ["z.py", "a.py", "m/n.py", "m.py", "M.py"]:
        write(project / name, b"MANUAL\nLEGACY\n")

    assert run(Mode.CHECK, []) == run(Mode.CHECK, ["z.py", ".", "a.py"])


def test_a_job_can_cross_a_process_boundary(project: Path) -> None:
    # The contract a process pool relies on: a picklable job, a top-level function, a picklable outcome.
    write(project / "a.py", b"LEGACY\n")
    job = FileJob(path=str(project / "a.py"), display_path="a.py", mode=Mode.DIFF)

    outcome = process_file(pickle.loads(pickle.dumps(job)))

    assert pickle.loads(pickle.dumps(outcome)) == outcome
    assert pickle.loads(pickle.dumps(process_file)) is process_file


def test_mode_may_be_given_as_a_string(project: Path) -> None:
    write(project / "a.py", b"LEGACY\n")

    assert run("check", []).mode is Mode.CHECK


def test_progress_follows_the_walk_then_the_files(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for index in range(1100):
        write(project / f"m{index // 100}" / f"f{index}.py", b"x = 1\n")
    calls: list[tuple[int, int]] = []

    run(Mode.CHECK, ["."], progress=lambda done, total: calls.append((done, total)), workers=2)

    assert calls[-1] == (1100, 1100)
    assert calls[0] == (1, 1)  # each file is screened as the walk finds it
    assert (1023, 1024) in calls  # and every 1024 files the walk finds
    assert all(done <= total for done, total in calls)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
