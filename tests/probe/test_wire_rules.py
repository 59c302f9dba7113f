"""The wire rules as rules: their metadata, their examples (run here), the selection."""

from __future__ import annotations

import itertools
import json
import re

import pytest

from acp_migrate.probe.checks import ERROR, NOTE, WIRE_RULES, enabled_codes, run_checks, unknown_selectors
from acp_migrate.probe.checks._prelude import INIT, INIT_LOAD, NEW, NEW_RESULT, WEB, update
from acp_migrate.probe.wire import FROM_AGENT, parse_example

LOAD = '-> {"jsonrpc":"2.0","id":2,"method":"session/load","params":{"sessionId":"s1","cwd":"/w","mcpServers":[]}}\n'
LOADED = '<- {"jsonrpc":"2.0","id":2,"result":{}}\n'
STATIC_CODES = {f"ACP00{n}" for n in range(1, 10)} | {"ACP100"}


def test_every_rule_has_a_code_a_name_docs_and_examples() -> None:
    codes = [check.code for check in WIRE_RULES]
    assert codes == sorted(set(codes)) and codes[0] == "ACP101"
    assert not set(codes) & STATIC_CODES
    for check in WIRE_RULES:
        assert re.fullmatch(r"ACP1\d\d", check.code)
        assert re.fullmatch(r"[a-z]+(-[a-z]+)+", check.name), check.name
        assert check.documentation.startswith(f"{check.code} {check.name}: ")
        assert check.summary
        assert any(e.flagged for e in check.examples) and any(not e.flagged for e in check.examples)


@pytest.mark.parametrize(
    "check, example",
    [(check, example) for check in WIRE_RULES for example in check.examples],
    ids=lambda value: getattr(value, "code", None) or ("reported" if value.flagged else "clean"),
)
def test_each_example_is_judged_as_documented(check, example) -> None:
    # A reported example breaks that rule alone (or gets its note); the others break none.
    findings = [f for f in run_checks(parse_example(example.before)) if f.level == ERROR or f.code == check.code]

    assert {f.code for f in findings} == ({check.code} if example.flagged else set())
    for f in findings:
        assert f.frame is not None and f.step and f.message
        assert f.level == check.level or (check.code == "ACP105" and f.level == NOTE)


def test_findings_name_the_step_the_session_and_the_frame() -> None:
    [check] = [c for c in WIRE_RULES if c.code == "ACP102"]
    transcript = parse_example(check.examples[0].before)

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

    [message] = [f.message for f in run_checks(parse_example(frames))]  # one finding a list

    assert message.startswith("2 of 4 commands for session s1 invalid (protocol v2): ")
    assert "command 1 ('a') has an input without a type" in message
    assert "command 4 ('d') has an input of the reserved type 'choice'" in message
    assert "'b'" not in message and "'c'" not in message


ITEMS = [
    {"name": "web", "description": "Search", "input": {"hint": "query"}, "_meta": {"x": 1}},
    {"name": "web", "description": "Search", "input": {"type": "text", "hint": "query"}},
    {"name": "pick", "description": "Pick", "input": {"type": "_choice", "options": ["a"]}},
    {"name": "pick", "description": "Pick", "input": {"type": "choice"}},
    {"name": "plan", "description": "Plan", "input": None},
    {"name": "plan", "description": 5},
    {"name": "plan"},
    ["plan"],
]


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("item", ITEMS, ids=range(len(ITEMS)))
def test_acp105_judges_each_item_by_the_one_command_model(item, version) -> None:
    from pydantic import ValidationError

    from acp_migrate.probe.schema import available_command, command_problems

    try:
        available_command(version).model_validate(item)
        valid = True
    except ValidationError:
        valid = False

    assert valid is (command_problems(item, version) == [])
    assert valid is (item in ITEMS[:2] + ITEMS[4:5] if version == 1 else item in ITEMS[1:3] + ITEMS[4:5])


def test_invalid_items_are_one_finding_a_list_with_a_count_and_null_inputs_a_note() -> None:
    items = [{"name": f"c {n}", "description": "spaced", "input": None} for n in range(40)]
    items.append({"name": "ok", "description": "fine", "input": None})
    frames = INIT + NEW + NEW_RESULT + update("s1", json.dumps(items)) + update("s1", json.dumps(items[:2]))

    reported = run_checks(parse_example(frames), ["ACP105"])

    errors = [f for f in reported if f.level == ERROR]
    notes = [f for f in reported if f.level == NOTE]
    assert [f.code for f in errors] == ["ACP105", "ACP105"]  # one a list, not one an item
    assert errors[0].basis == "policy"  # the spec says nothing of spaces in names
    assert errors[0].message.startswith(
        "40 of 41 commands for session s1 with a name no user can type: command 1 ('c 0')"
    )
    assert errors[0].message.endswith("; and 37 more")
    assert errors[1].message.startswith("2 of 2 commands")
    assert [f.code for f in notes] == ["ACP105", "ACP105"]
    assert notes[0].message.startswith("41 of 41 commands for session s1 have input: null (schema-valid")


def test_a_late_list_is_credited_to_its_setup_by_session_id_not_the_step_running() -> None:
    frames = INIT_LOAD + NEW + NEW_RESULT + LOAD + update("s1", "[" + WEB + "]") + LOADED
    transcript = parse_example(frames)

    [note] = [f for f in run_checks(transcript) if f.code == "ACP112"]

    assert (note.level, note.step, note.session_id) == (NOTE, "session/new", "s1")
    assert "during session/load" in note.message
    assert transcript.setup_of(transcript.command_lists[0]).method == "session/new"


def test_a_list_sent_during_a_prompts_turn_is_not_late() -> None:
    prompt = '-> {"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}\n'
    frames = INIT + NEW + NEW_RESULT + prompt + update("s1", "[" + WEB + "]")

    assert run_checks(parse_example(frames)) == []


def burst_orders(setups: int) -> list[tuple[str, ...]]:
    """Every order in which an agent may send the responses (R) and lists (L) of a burst
    of `setups` setups of one id, the lists identical: each order where at no point more
    lists than responses were sent is compliant."""
    orders = set(itertools.permutations("R" * setups + "L" * setups))
    return sorted(orders)


def compliant(order: tuple[str, ...]) -> bool:
    balance = 0
    for item in order:
        balance += 1 if item == "R" else -1
        if balance < 0:
            return False
    return True


@pytest.mark.parametrize("order", burst_orders(3), ids="".join)
def test_a_burst_of_loads_is_judged_by_order_alone_whatever_the_interleaving(order) -> None:
    # Three loads of s1 sent together; the agent answers them and sends their lists in
    # `order`, then the probe's next request (a close) and, maybe, nothing more.
    load = (
        '-> {"jsonrpc":"2.0","id":%d,"method":"session/load","params":{"sessionId":"s1","cwd":"/w","mcpServers":[]}}\n'
    )
    frames = INIT_LOAD + NEW + NEW_RESULT + update("s1", "[" + WEB + "]") + "".join(load % n for n in (2, 3, 4))
    answers = iter((2, 3, 4))
    for item in order:
        frames += (
            '<- {"jsonrpc":"2.0","id":%d,"result":{}}\n' % next(answers)
            if item == "R"
            else update("s1", "[" + WEB + "]")
        )
    transcript = parse_example(frames)

    errors = sorted({f.code for f in run_checks(transcript) if f.level == ERROR})

    assert errors == ([] if compliant(order) else ["ACP102"])
    loads = [s for s in transcript.setup_steps if s.method == "session/load"]
    assert [len(transcript.lists_of(s)) for s in loads] == [1, 1, 1]  # one each, never all to the last


def test_a_list_owed_and_never_sent_is_the_finding_and_the_run_knows_it_is_owed() -> None:
    frames = INIT_LOAD + NEW + NEW_RESULT + update("s1", "[" + WEB + "]") + LOAD + LOADED
    transcript = parse_example(frames)

    assert [s.method for s in transcript.owed()] == ["session/load"]
    assert [f.code for f in run_checks(transcript) if f.level == ERROR] == ["ACP108"]
    assert parse_example(frames + update("s1", "[" + WEB + "]")).owed() == []


def test_a_list_before_its_fork_response_is_found_in_a_burst_whatever_request_came_last() -> None:
    fork = (
        '-> {"jsonrpc":"2.0","id":%d,"method":"session/fork","params":{"sessionId":"s1","cwd":"/w","mcpServers":[]}}\n'
    )
    answer = '<- {"jsonrpc":"2.0","id":%d,"result":{"sessionId":"%s"}}\n'
    frames = (
        INIT
        + NEW
        + NEW_RESULT
        + update("s1", "[" + WEB + "]")
        + fork % 2
        + fork % 3
        + answer % (2, "f1")
        + update("f2", "[" + WEB + "]")  # before its own response, after the first fork's
        + answer % (3, "f2")
        + update("f1", "[" + WEB + "]")
    )

    [finding] = run_checks(parse_example(frames))

    assert (finding.code, finding.step, finding.session_id) == ("ACP102", "session/fork", "f2")


@pytest.mark.parametrize(
    "select, ignore, expected",
    [
        (None, [], [c.code for c in WIRE_RULES]),
        (["ACP102"], [], ["ACP102"]),
        (["ALL"], ["ACP10"], [c.code for c in WIRE_RULES if c.code >= "ACP110"]),
        (["ACP1"], ["ACP109"], [c.code for c in WIRE_RULES if c.code != "ACP109"]),
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
    words = " ".join(table.split())  # each summary wraps below its code
    for check in WIRE_RULES:
        assert f" {check.code} {check.name} no {check.summary} " in words + " "
    assert "ACP001 " in table
    doc = render_rule_doc(rule_info("acp101"))
    assert doc.startswith("# ACP101 commands-at-initialize\n")
    for example in rule_info("ACP101").examples:
        assert example.before in doc


@pytest.mark.parametrize("load_sends_its_own", [True, False])
def test_a_new_sessions_list_landing_during_the_load_of_that_id_is_news_late_one(load_sends_its_own) -> None:
    # The same agent on a fast and a slow machine: the verdict must not flip.
    own = update("s1", "[" + WEB + "]") if load_sends_its_own else ""
    fast = INIT_LOAD + NEW + NEW_RESULT + update("s1", "[" + WEB + "]") + LOAD + LOADED + own
    slow = INIT_LOAD + NEW + NEW_RESULT + LOAD + update("s1", "[" + WEB + "]") + LOADED + own

    verdicts = []
    for frames in (fast, slow):
        transcript = parse_example(frames)
        reported = run_checks(transcript)
        verdicts.append(sorted(f.code for f in reported if f.level == ERROR))
        new_list = transcript.command_lists[0]
        assert transcript.setup_of(new_list).method == "session/new"

    assert verdicts[0] == verdicts[1] == ([] if load_sends_its_own else ["ACP108"])
    [late] = [f for f in run_checks(parse_example(slow)) if f.code == "ACP112"]
    assert (late.step, late.session_id) == ("session/new", "s1")
