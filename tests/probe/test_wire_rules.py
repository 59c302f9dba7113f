"""The wire rules as rules: their metadata, their examples (run here), the selection."""

from __future__ import annotations

import re

import pytest

from acp_migrate.probe.checks import ALL_CHECKS, enabled_codes, run_checks, unknown_selectors
from acp_migrate.probe.wire import FROM_AGENT, parse_example

STATIC_CODES = {f"ACP00{n}" for n in range(1, 10)} | {"ACP100"}


def test_every_rule_has_a_code_a_name_docs_and_examples() -> None:
    codes = [check.code for check in ALL_CHECKS]
    assert codes == sorted(set(codes)) and codes[0] == "ACP101"
    assert not set(codes) & STATIC_CODES
    for check in ALL_CHECKS:
        assert re.fullmatch(r"ACP1\d\d", check.code)
        assert re.fullmatch(r"[a-z]+(-[a-z]+)+", check.name), check.name
        assert check.documentation.startswith(f"{check.code} {check.name}: ")
        assert check.summary
        assert any(e.flagged for e in check.examples) and any(not e.flagged for e in check.examples)


@pytest.mark.parametrize(
    "check, example",
    [(check, example) for check in ALL_CHECKS for example in check.examples],
    ids=lambda value: getattr(value, "code", None) or ("reported" if value.flagged else "clean"),
)
def test_each_example_is_judged_as_documented(check, example) -> None:
    # A reported example breaks that rule alone; the others break none.
    findings = run_checks(parse_example(example.frames))

    assert {f.code for f in findings} == ({check.code} if example.flagged else set())
    for f in findings:
        assert f.frame is not None and f.step and f.message


def test_findings_name_the_step_the_session_and_the_frame() -> None:
    [check] = [c for c in ALL_CHECKS if c.code == "ACP102"]
    transcript = parse_example(check.examples[0].frames)

    [finding] = run_checks(transcript)

    assert (finding.step, finding.session_id) == ("session/new", "s1")
    frame = transcript.frames[finding.frame]
    assert frame.direction == FROM_AGENT and frame.method == "session/update"


def test_a_frame_that_is_not_json_is_kept_and_reported() -> None:
    transcript = parse_example('<- {"jsonrpc":"2.0","id":0,"result":\n<- [1, 2]\n')

    assert [f.message for f in transcript.frames] == [None, None]
    assert [f.code for f in run_checks(transcript)] == ["ACP110", "ACP110"]


def test_v2_inputs_need_a_type() -> None:
    frames = (
        '-> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2}}\n'
        '<- {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"agentCapabilities":{}}}\n'
        '-> {"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}\n'
        '<- {"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1","availableCommands":['
        '{"name":"a","description":"A","input":{"hint":"h"}},'
        '{"name":"b","description":"B","input":{"type":"text","hint":"h"}},'
        '{"name":"c","description":"C","input":{"type":"_choice","options":[]}},'
        '{"name":"d","description":"D","input":{"type":"choice"}}]}}\n'
    )

    messages = [f.message for f in run_checks(parse_example(frames))]

    assert len(messages) == 2
    assert "command 1 ('a')" in messages[0] and "without a type" in messages[0]
    assert "command 4 ('d')" in messages[1] and "reserved type 'choice'" in messages[1]


@pytest.mark.parametrize(
    "select, ignore, expected",
    [
        (None, [], [c.code for c in ALL_CHECKS]),
        (["ACP102"], [], ["ACP102"]),
        (["ALL"], ["ACP10"], [c.code for c in ALL_CHECKS if c.code >= "ACP110"]),
        (["ACP1"], ["ACP109"], [c.code for c in ALL_CHECKS if c.code != "ACP109"]),
        (["ACP109"], ["ACP1"], ["ACP109"]),  # the more specific selector wins
    ],
)
def test_select_and_ignore_follow_checks_semantics(select, ignore, expected) -> None:
    assert enabled_codes(select, ignore) == expected


def test_unknown_selectors_are_named() -> None:
    assert unknown_selectors(["ACP102", "ALL", "XYZ", "ACP001"]) == ["XYZ", "ACP001"]


def test_acp_migrate_rules_lists_the_wire_rules_with_the_static_ones() -> None:
    from acp_migrate.api import list_rules, rule_info
    from acp_migrate.report.rules import render_rule_doc, render_rule_table

    table = render_rule_table(list_rules())
    for check in ALL_CHECKS:
        [line] = [line for line in table.splitlines() if line.startswith(check.code + " ")]
        assert check.name in line and check.summary in line
    assert "ACP001 " in table
    doc = render_rule_doc(rule_info("acp101"))
    assert doc.startswith("# ACP101 commands-at-initialize\n")
    for example in rule_info("ACP101").examples:
        assert example.before in doc
