"""Output formats: GitHub annotations, SARIF (validated against the official 2.1.0 schema),
statistics, concise, quiet, colour, the rules list and documentation."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from acp_migrate.api import list_rules, rule_info
from acp_migrate.results import FileError, FileOutcome, Mode, RunResult
from acp_migrate.findings import Finding
from acp_migrate.report.colour import Painter, colour_enabled
from acp_migrate.report.diff import colour_patch
from acp_migrate.report.github import render_github
from acp_migrate.report.progress import ProgressBar, render_run_summary
from acp_migrate.report.rules import render_rule_doc, render_rule_table
from acp_migrate.report.sarif import render_sarif
from acp_migrate.report.statistics import render_statistics, render_statistics_json
from acp_migrate.report.text import render_check, render_concise, render_fix
from acp_migrate.rules import ALL_RULES

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())


def finding(path: str, line: int, code: str = "ACP001", *, fixable: bool = True, message: str = "legacy") -> Finding:
    return Finding(
        path=path, line=line, column=3, end_line=line + 1, end_column=9, code=code, message=message, fixable=fixable
    )


def result_with(*findings: Finding, errors: list[FileError] | None = None, mode: Mode = Mode.CHECK) -> RunResult:
    by_path: dict[str, list[Finding]] = {}
    for f in findings:
        by_path.setdefault(f.path, []).append(f)
    files = [FileOutcome(path=p, findings=fs, remaining=[f for f in fs if not f.fixable]) for p, fs in by_path.items()]
    return RunResult(mode=mode, files=files, path_errors=errors or [])


# --- github -------------------------------------------------------------------------------


def test_github_annotations_carry_the_position_and_code() -> None:
    result = result_with(finding("pkg/agent.py", 4))

    assert (
        render_github(result) == "::error file=pkg/agent.py,line=4,col=3,endLine=5,endColumn=9,title=ACP001::legacy\n"
    )


def test_github_escapes_data_and_properties() -> None:
    result = result_with(finding("odd,dir:x/a%b.py", 1, message="50% done\nnext: line"))

    [line] = render_github(result).splitlines()

    assert line.startswith("::error file=odd%2Cdir%3Ax/a%25b.py,line=1,")
    assert line.endswith("::50%25 done%0Anext: line")


def test_github_annotates_unanalysed_files_too() -> None:
    result = result_with(errors=[FileError(path="broken.py", reason="syntax error at line 1")])

    assert (
        render_github(result)
        == "::error file=broken.py,title=acp-migrate::could not be analysed: syntax error at line 1\n"
    )


# --- sarif --------------------------------------------------------------------------------


def validate(log: dict) -> None:
    jsonschema.Draft4Validator(SCHEMA).validate(log)


def test_the_schema_is_the_official_sarif_2_1_0_one() -> None:
    assert SCHEMA["id"] == "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    jsonschema.Draft4Validator.check_schema(SCHEMA)


def test_sarif_output_is_valid_and_carries_rule_metadata(tmp_path: Path) -> None:
    result = result_with(
        finding("pkg/agent.py", 4),
        finding("pkg/agent.py", 9, "ACP004", fixable=False),
        finding("docs/with space.md", 2, "ACP006", fixable=False),
        errors=[FileError(path="broken.py", reason="syntax error")],
    )
    rules = list_rules()

    log = json.loads(render_sarif(result, rules, cwd=str(tmp_path)))

    validate(log)
    [run] = log["runs"]
    descriptors = run["tool"]["driver"]["rules"]
    assert [d["id"] for d in descriptors] == [r.code for r in rules]
    for descriptor, rule in zip(descriptors, rules, strict=True):
        assert descriptor["shortDescription"]["text"] == rule.summary
        assert descriptor["fullDescription"]["text"] == rule.documentation.strip()
        assert rule.documentation.strip() in descriptor["help"]["text"]
        for example in rule.examples:
            assert example.before in descriptor["help"]["markdown"]
    assert len(run["results"]) == 3
    for entry in run["results"]:
        assert descriptors[entry["ruleIndex"]]["id"] == entry["ruleId"]
    by_rule = {r["ruleId"]: r for r in run["results"]}
    location = by_rule["ACP001"]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "pkg/agent.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 4, "startColumn": 3, "endLine": 5, "endColumn": 9}
    assert by_rule["ACP006"]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "docs/with%20space.md"
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.as_uri() + "/"
    [invocation] = run["invocations"]
    assert invocation["executionSuccessful"] is False
    assert invocation["toolExecutionNotifications"][0]["message"]["text"] == "could not be analysed: syntax error"


def test_sarif_of_a_clean_run_is_valid_and_empty() -> None:
    log = json.loads(render_sarif(result_with(), list_rules()))

    validate(log)
    assert log["runs"][0]["results"] == []
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is True


def test_an_invalid_log_is_rejected_by_the_schema() -> None:
    # The validation above could not pass vacuously.
    log = json.loads(render_sarif(result_with(finding("a.py", 1)), list_rules()))
    log["runs"][0]["results"][0]["level"] = "fatal"

    with pytest.raises(jsonschema.ValidationError):
        validate(log)


# --- statistics, concise, quiet -----------------------------------------------------------


def test_statistics_count_per_rule_most_frequent_first() -> None:
    result = result_with(
        finding("a.py", 1, "ACP004", fixable=False),
        finding("a.py", 2),
        finding("b.py", 3),
        finding("b.py", 4),
    )
    names = {"ACP001": "initialize-slash-commands", "ACP004": "slash-commands-read"}

    assert render_statistics(result, names).splitlines() == [
        "3\tACP001\t[*] initialize-slash-commands",
        "1\tACP004\t[ ] slash-commands-read",
    ]
    assert json.loads(render_statistics_json(result, names)) == [
        {"code": "ACP001", "name": "initialize-slash-commands", "count": 3, "fixable": True},
        {"code": "ACP004", "name": "slash-commands-read", "count": 1, "fixable": False},
    ]


def test_concise_and_quiet_drop_the_summary() -> None:
    result = result_with(finding("a.py", 1))

    assert render_concise(result) == "a.py:1:3: ACP001 [*] legacy\n"
    assert render_check(result, quiet=True) == "a.py:1:3: ACP001 [*] legacy\n"
    assert render_check(result).splitlines()[-2:] == [
        "Found 1 finding in 1 file.",
        "[*] 1 fixable with `acp-migrate fix`.",
    ]
    fixed = RunResult(
        mode=Mode.FIX, files=[FileOutcome(path="a.py", findings=[finding("a.py", 1)], changed=True, written=True)]
    )
    assert render_fix(fixed, quiet=True) == ""
    assert render_fix(fixed) == "Fixed a.py\nFixed 1 finding in 1 file.\n"
    assert render_fix(fixed, summary=False) == "Fixed a.py\n"


# --- colour and terminal extras -------------------------------------------------------------


class FakeStream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty
        self.written: list[str] = []

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> None:
        self.written.append(text)

    def flush(self) -> None:
        pass


@pytest.mark.parametrize(
    ("tty", "no_color", "environ", "expected"),
    [
        (True, False, {}, True),
        (False, False, {}, False),
        (True, True, {}, False),
        (True, False, {"NO_COLOR": "1"}, False),
        (True, False, {"TERM": "dumb"}, False),
        (False, False, {"FORCE_COLOR": "1"}, True),
        (False, False, {"FORCE_COLOR": "0"}, False),
    ],
)
def test_colour_only_on_a_tty_and_never_when_refused(tty: bool, no_color: bool, environ: dict, expected: bool) -> None:
    assert colour_enabled(FakeStream(tty), no_color=no_color, environ=environ) is expected


def test_coloured_text_keeps_the_plain_text() -> None:
    result = result_with(finding("a.py", 1))

    coloured = render_check(result, paint=Painter(True))

    assert "\x1b[" in coloured
    assert _strip_ansi(coloured) == render_check(result)


def test_coloured_patch_keeps_the_plain_patch() -> None:
    patch = b"--- a/x.py\r\n+++ b/x.py\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n context\r\n"

    coloured = colour_patch(patch)

    assert b"\x1b[31m-a\x1b[0m\r\n" in coloured and b"\x1b[32m+b\x1b[0m\r\n" in coloured
    assert _strip_ansi(coloured.decode()).encode() == patch


def test_progress_bar_draws_the_final_count_and_erases_itself() -> None:
    stream = FakeStream(True)
    bar = ProgressBar(stream, interval=3600)

    for done in range(1, 6):
        bar(done, 5)
    bar.close()

    drawn = "".join(stream.written)
    assert "1 file analysed" in drawn and "5 files analysed" in drawn
    assert "3 files analysed" not in drawn  # throttled
    assert drawn.endswith("\r\x1b[K")


def test_progress_shows_no_total_while_the_walk_still_finds_files() -> None:
    # runner.run's calls on a big run: the walk reports every 1024 files it finds, then
    # the outcomes come with the final total. A "done/total" would jump from 1024 to 1502.
    stream = FakeStream(True)
    bar = ProgressBar(stream, interval=0)

    bar(0, 1024)
    bar(1, 1502)
    bar(1502, 1502)
    bar.close()

    frames = [frame.split(" ", 1)[1] for frame in "".join(stream.written).split("\r\x1b[K") if frame]
    assert frames == ["1024 files found", "1 file analysed", "1502 files analysed"]
    assert "/" not in "".join(stream.written)


def test_run_summary_lists_files_time_and_findings_by_rule() -> None:
    result = result_with(finding("a.py", 1), finding("b.py", 2), finding("b.py", 3, "ACP004", fixable=False))
    result.files.append(FileOutcome(path="c.py"))

    summary = render_run_summary(result, 1.234, {"ACP001": "initialize-slash-commands"})

    assert summary.splitlines() == [
        "Found 3 findings in 2 files (3 files scanned in 1.23s):",
        "  ACP001 2  initialize-slash-commands",
        "  ACP004 1",
        "[*] 2 fixable with `acp-migrate fix`.",
    ]


def test_the_closing_summary_is_the_reports_summary_with_files_and_time() -> None:
    clean = RunResult(mode=Mode.CHECK, files=[FileOutcome(path="a.py")])
    fixed = RunResult(
        mode=Mode.FIX,
        files=[
            FileOutcome(
                path="a.py",
                findings=[finding("a.py", 1), finding("a.py", 5, "ACP004", fixable=False)],
                remaining=[finding("a.py", 5, "ACP004", fixable=False)],
                changed=True,
                written=True,
            ),
            FileOutcome(path="b.py"),
        ],
    )
    diff = RunResult(mode=Mode.DIFF, files=[FileOutcome(path="a.py", findings=[finding("a.py", 1)], changed=True)])

    assert render_run_summary(clean, 0.5, {}) == "All checks passed (1 file scanned in 0.50s).\n"
    assert render_run_summary(fixed, 0.5, {}).splitlines() == [
        "Fixed 1 finding in 1 file; 1 finding needs manual work (2 files scanned in 0.50s):",
        "  ACP004 1",
    ]
    assert render_run_summary(diff, 0.5, {}) == "Would fix 1 finding in 1 file (1 file scanned in 0.50s).\n"
    without_rules = render_run_summary(result_with(finding("a.py", 1)), 0.5, {}, by_rule=False)
    assert without_rules.splitlines() == [
        "Found 1 finding in 1 file (1 file scanned in 0.50s).",
        "[*] 1 fixable with `acp-migrate fix`.",
    ]


def _strip_ansi(text: str) -> str:
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", text)


# --- rules ----------------------------------------------------------------------------------


def test_the_rule_list_has_every_rule_within_80_columns() -> None:
    table = render_rule_table(list_rules())

    assert max(len(line) for line in table.splitlines()) <= 80
    words = " ".join(table.split())  # each summary wraps below its code
    for rule in ALL_RULES:
        assert f" {rule.code} {rule.name} {'yes' if rule.fixable else 'no'} {rule.summary} " in words + " "


@pytest.mark.parametrize("code", [rule.code for rule in ALL_RULES] + ["ACP100"])
def test_a_rules_documentation_is_its_module_docstring_and_examples(code: str) -> None:
    info = rule_info(code.lower())
    doc = render_rule_doc(info)

    assert doc.startswith(f"# {info.code} {info.name}\n")
    assert info.documentation.strip() in doc
    assert info.examples, "every rule documents at least one example"
    for example in info.examples:
        assert example.before in doc
        if example.after is not None:
            assert example.after in doc


def test_rule_docs_come_from_the_rule_modules() -> None:
    import sys

    for rule in ALL_RULES:
        assert rule_info(rule.code).documentation.startswith(f"{rule.code} {rule.name}")
        assert rule_info(rule.code).documentation.split("\n")[0] in sys.modules[rule.__module__].__doc__
