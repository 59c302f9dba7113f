"""Output formats: text lines and summaries, JSON, and patches that `git apply` accepts."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from acp_migrate.results import FileError, FileOutcome, Mode, RunResult
from acp_migrate.findings import Finding
from acp_migrate.report.diff import render_diff
from acp_migrate.report.json_format import render_json
from acp_migrate.report.text import (
    diff_summary,
    fix_summary,
    fixed_findings,
    format_finding,
    render_check,
    render_errors,
    render_fix,
    render_fixes,
)


def finding(path: str, line: int, code: str = "ACP001", *, fixable: bool = True) -> Finding:
    return Finding(
        path=path,
        line=line,
        column=5,
        end_line=line,
        end_column=30,
        code=code,
        message="`slash_commands` is no longer part of AgentCapabilities",
        fixable=fixable,
    )


def check_result(*outcomes: FileOutcome, path_errors: list[FileError] | None = None) -> RunResult:
    return RunResult(mode=Mode.CHECK, files=list(outcomes), path_errors=path_errors or [])


def test_a_finding_is_one_line() -> None:
    assert format_finding(finding("pkg/agent.py", 12)) == (
        "pkg/agent.py:12:5: ACP001 `slash_commands` is no longer part of AgentCapabilities"
    )


def test_check_marks_the_fixable_findings_as_ruff_does() -> None:
    assert format_finding(finding("a.py", 2), mark_fixable=True) == (
        "a.py:2:5: ACP001 [*] `slash_commands` is no longer part of AgentCapabilities"
    )
    assert format_finding(finding("a.py", 3, "ACP005", fixable=False), mark_fixable=True).startswith(
        "a.py:3:5: ACP005 `slash"
    )


def test_check_lists_findings_then_a_summary() -> None:
    result = check_result(
        FileOutcome(path="b.py", findings=[finding("b.py", 3, "ACP005", fixable=False)]),
        FileOutcome(path="a.py", findings=[finding("a.py", 9), finding("a.py", 2)]),
    )

    assert render_check(result).splitlines() == [
        format_finding(finding("a.py", 2), mark_fixable=True),
        format_finding(finding("a.py", 9), mark_fixable=True),
        format_finding(finding("b.py", 3, "ACP005", fixable=False), mark_fixable=True),
        "Found 3 findings in 2 files.",
        "[*] 2 fixable with `acp-migrate fix`.",
    ]


def test_singular_summary() -> None:
    result = check_result(FileOutcome(path="a.py", findings=[finding("a.py", 1)]))

    assert render_check(result).splitlines()[-2:] == [
        "Found 1 finding in 1 file.",
        "[*] 1 fixable with `acp-migrate fix`.",
    ]


def test_no_fixable_hint_without_fixable_findings() -> None:
    result = check_result(FileOutcome(path="a.py", findings=[finding("a.py", 1, "ACP004", fixable=False)]))

    assert render_check(result).splitlines()[-1] == "Found 1 finding in 1 file."


def test_the_summary_can_be_left_to_the_closing_summary() -> None:
    result = check_result(FileOutcome(path="a.py", findings=[finding("a.py", 1)]))

    assert render_check(result, summary=False) == format_finding(finding("a.py", 1), mark_fixable=True) + "\n"
    assert render_check(check_result(FileOutcome(path="a.py")), summary=False) == ""


def test_clean_run_passes() -> None:
    assert render_check(check_result(FileOutcome(path="a.py"))) == "All checks passed.\n"


def test_a_run_with_an_unanalysed_file_never_claims_success() -> None:
    result = check_result(FileOutcome(path="a.py"), FileOutcome(path="b.py", error="syntax error"))

    assert render_check(result) == "1 file could not be analysed.\n"
    assert "passed" not in render_check(result)


def test_findings_and_errors_are_both_summarised() -> None:
    result = check_result(
        FileOutcome(path="a.py", findings=[finding("a.py", 1)]),
        path_errors=[FileError(path="gone", reason="no such file or directory")],
    )
    result.files.append(FileOutcome(path="b.py", error="is a directory"))

    assert render_check(result).splitlines()[-2:] == [
        "Found 1 finding in 1 file; 2 files could not be analysed.",
        "[*] 1 fixable with `acp-migrate fix`.",
    ]


def test_errors_are_path_error_reason_lines_sorted_by_path() -> None:
    result = check_result(
        FileOutcome(path="b.py", error="cannot decode as utf-8"),
        path_errors=[FileError(path="a", reason="no such file or directory")],
    )

    assert render_errors(result) == "a: error: no such file or directory\nb.py: error: cannot decode as utf-8\n"
    assert render_errors(check_result(FileOutcome(path="a.py"))) == ""


def test_json_is_an_array_of_findings_with_the_contract_keys() -> None:
    result = check_result(FileOutcome(path="a.py", findings=[finding("a.py", 7), finding("a.py", 1, fixable=False)]))

    data = json.loads(render_json(result))

    assert [item["line"] for item in data] == [1, 7]
    assert data[0] == {
        "path": "a.py",
        "line": 1,
        "column": 5,
        "end_line": 1,
        "end_column": 30,
        "code": "ACP001",
        "message": "`slash_commands` is no longer part of AgentCapabilities",
        "fixable": False,
    }


def test_json_of_a_clean_run_is_an_empty_array() -> None:
    assert json.loads(render_json(check_result(FileOutcome(path="a.py")))) == []


def test_fix_lists_fixed_files_then_what_needs_a_person_then_a_summary() -> None:
    manual = finding("a.py", 4, "ACP005", fixable=False)
    result = RunResult(
        mode=Mode.FIX,
        files=[
            FileOutcome(
                path="a.py", findings=[finding("a.py", 4), manual], remaining=[manual], changed=True, written=True
            ),
            FileOutcome(path="b.py", findings=[finding("b.py", 1)], changed=True, written=True),
            FileOutcome(path="c.py"),
        ],
    )

    assert render_fix(result).splitlines() == [
        "Fixed a.py",
        "Fixed b.py",
        format_finding(manual),
        "Fixed 2 findings in 2 files; 1 finding needs manual work.",
    ]


def test_fix_says_changed_not_fixed_of_a_file_where_it_only_wrote_a_todo() -> None:
    todo = finding("a.py", 4, "ACP005", fixable=False)
    left = finding("a.py", 4)  # fixable in general, but left here with the TODO
    result = RunResult(
        mode=Mode.FIX,
        files=[
            FileOutcome(path="a.py", findings=[left, todo], remaining=[left, todo], changed=True, written=True),
            FileOutcome(path="b.py", findings=[finding("b.py", 1)], changed=True, written=True),
        ],
    )

    assert render_fix(result).splitlines()[:2] == ["Changed a.py", "Fixed b.py"]


@pytest.mark.parametrize(
    ("files", "summary"),
    [
        ([FileOutcome(path="a.py")], "Nothing to fix."),
        (
            [FileOutcome(path="a.py", findings=[finding("a.py", 1)], changed=True, written=True)],
            "Fixed 1 finding in 1 file.",
        ),
        # Only a TODO comment added: the file changed, no finding was fixed.
        ([FileOutcome(path="a.py", changed=True, written=True)], "Changed 1 file."),
        ([FileOutcome(path="a.py", error="permission denied: file is read-only")], "1 file could not be analysed."),
        (
            [FileOutcome(path="a.py", remaining=[finding("a.py", 1, fixable=False)] * 2)],
            "2 findings need manual work.",
        ),
    ],
)
def test_fix_summaries(files: list[FileOutcome], summary: str) -> None:
    assert render_fix(RunResult(mode=Mode.FIX, files=files)).splitlines()[-1] == summary


def test_fixed_findings_are_the_fixable_ones_fix_wrote_and_did_not_leave() -> None:
    kept = finding("a.py", 2)  # fixable, but fix left it (its follow-up is silenced)
    todo = finding("a.py", 2, "ACP005", fixable=False)
    result = RunResult(
        mode=Mode.FIX,
        files=[
            FileOutcome(
                path="a.py",
                findings=[finding("a.py", 1), kept, finding("a.py", 3, "ACP004", fixable=False)],
                remaining=[kept, todo],
                changed=True,
                written=True,
            ),
            # Not written (it could not be): nothing in it was fixed.
            FileOutcome(path="b.py", findings=[finding("b.py", 1)], error="permission denied"),
        ],
    )

    assert fixed_findings(result) == [finding("a.py", 1)]
    # `kept` is fixable: listed for review, not work left.
    assert fix_summary(result) == (
        "Fixed 1 finding in 1 file; 1 listed above for review; 1 finding needs manual work; 1 file could not be written."
    )
    diff = RunResult(mode=Mode.DIFF, files=[replace(outcome, written=False) for outcome in result.files])
    assert fixed_findings(diff) == [finding("a.py", 1)]
    assert diff_summary(diff).startswith("Would fix 1 finding in 1 file; ")
    assert diff_summary(RunResult(mode=Mode.DIFF, files=[FileOutcome(path="a.py")])) == "Nothing to change."


def test_show_fixes_lists_the_fixed_findings_per_file_and_rule() -> None:
    names = {"ACP001": "initialize-slash-commands", "ACP003": "schema-slash-commands-field"}
    result = RunResult(
        mode=Mode.FIX,
        files=[
            FileOutcome(
                path="b.py",
                findings=[finding("b.py", 1, "ACP003"), finding("b.py", 2), finding("b.py", 3, "ACP003")],
                changed=True,
                written=True,
            ),
            FileOutcome(path="a.py", findings=[finding("a.py", 1)], changed=True, written=True),
        ],
    )

    assert render_fixes(result, names).splitlines() == [
        "Fixed 4 findings:",
        "- a.py:",
        "    1 × ACP001 (initialize-slash-commands)",
        "- b.py:",
        "    2 × ACP003 (schema-slash-commands-field)",
        "    1 × ACP001 (initialize-slash-commands)",
    ]
    # In place of the `Fixed <path>` lines, before what is left and the summary.
    assert render_fix(result, show_fixes=names).splitlines()[-1] == "Fixed 4 findings in 2 files."
    assert "Fixed a.py" not in render_fix(result, show_fixes=names)
    check = check_result(
        FileOutcome(path="a.py", findings=[finding("a.py", 1), finding("a.py", 2, "ACP004", fixable=False)])
    )
    assert render_fixes(check, {}).splitlines() == ["Would fix 1 finding:", "- a.py:", "    1 × ACP001"]
    assert render_fixes(check_result(FileOutcome(path="a.py")), names) == ""


# --- diff ---------------------------------------------------------------------------------

GIT_ENV = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}

DIFF_CASES = {
    "lf.py": (b"a\nb\nc\nd\ne\nf\ng\nh\n", b"a\nb\nc\nD\ne\nf\ng\nh\n", "utf-8"),
    "crlf.py": (b"import x\r\nA(b=1,\r\n  c=2)\r\ny = 1\r\n", b"import x\r\nA(b=1)\r\ny = 1\r\n", "utf-8"),
    "no_newline_changed_before_end.py": (b"a\nb\nc", b"a\nB\nc", "utf-8"),
    "no_newline_last_line_changed.py": (b"a\nb\nc", b"a\nb\nC", "utf-8"),
    "newline_added_at_end.py": (b"a\nb", b"a\nb\n", "utf-8"),
    "crlf_no_newline.py": (b"a\r\nb\r\nc", b"a\r\nc", "utf-8"),
    "bom.py": (b"\xef\xbb\xbfx = 1\ny = 2\n", b"\xef\xbb\xbfx = 2\ny = 2\n", "utf-8-sig"),
    "latin1.py": (b"# coding: latin-1\ns = '\xe9'\nt = 1\n", b"# coding: latin-1\ns = '\xe9'\n", "latin-1"),
    # Characters str.splitlines() would break on, but git does not.
    "odd_line_breaks.py": (
        b"x = 1  # \x0c\x1c\xe2\x80\xa8\ny = 2\nz = 3\n",
        b"x = 1  # \x0c\x1c\xe2\x80\xa8\nz = 3\n",
        "utf-8",
    ),
    "tabs.py": (b"if x:\n\ty = 1\n\tz = 2\n", b"if x:\n\ty = 1\n", "utf-8"),
    "with space.py": (b"a\nb\n", b"a\n", "utf-8"),
    "sub/dir/nested.py": (b"a\nb\n", b"b\n", "utf-8"),
}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, env=GIT_ENV)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def diff_outcomes() -> list[FileOutcome]:
    return [
        FileOutcome(path=os.path.normpath(name), changed=True, original=old, fixed_source=new, encoding=encoding)
        for name, (old, new, encoding) in sorted(DIFF_CASES.items())
    ]


def test_git_apply_reproduces_exactly_what_fix_would_write(repo: Path) -> None:
    for name, (old, _, _) in DIFF_CASES.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_bytes(old)
    patch = render_diff(RunResult(mode=Mode.DIFF, files=diff_outcomes()))

    applied = subprocess.run(["git", "apply", "-v"], input=patch, capture_output=True, env=GIT_ENV)

    assert applied.returncode == 0, applied.stderr.decode()
    for name, (_, new, _) in DIFF_CASES.items():
        assert (repo / name).read_bytes() == new, name


def test_patch_headers_use_a_and_b_prefixes() -> None:
    outcome = FileOutcome(path=os.path.join("pkg", "a.py"), changed=True, original=b"x\ny\n", fixed_source=b"x\n")

    patch = render_diff(RunResult(mode=Mode.DIFF, files=[outcome]))

    assert patch == b"--- a/pkg/a.py\n+++ b/pkg/a.py\n@@ -1,2 +1 @@\n x\n-y\n"


def test_a_missing_final_newline_is_marked() -> None:
    outcome = FileOutcome(path="a.py", changed=True, original=b"x\ny", fixed_source=b"x\nz")

    assert render_diff(RunResult(mode=Mode.DIFF, files=[outcome])).endswith(
        b"-y\n\\ No newline at end of file\n+z\n\\ No newline at end of file\n"
    )


def test_crlf_is_kept_in_the_patch() -> None:
    outcome = FileOutcome(path="a.py", changed=True, original=b"x\r\ny\r\n", fixed_source=b"x\r\n")

    assert render_diff(RunResult(mode=Mode.DIFF, files=[outcome])).endswith(b" x\r\n-y\r\n")


def test_unchanged_outcomes_produce_no_patch() -> None:
    result = RunResult(mode=Mode.DIFF, files=[FileOutcome(path="a.py", findings=[finding("a.py", 1, fixable=False)])])

    assert render_diff(result) == b""
