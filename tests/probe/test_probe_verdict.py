"""What a verdict states: the coverage (what each kind of setup exercised, or why not),
--require, no pass on nothing tested, spec or policy findings (and --ignore POLICY),
one finding per repeated defect, the silent break of the SDK 0.7, hints that work,
and --replay of a --record file."""

from __future__ import annotations

import json
import sys

from probe_support import AGENTS, HERE, codes, probe_agent, probe_cli

from acp_migrate.probe import judge, replay
from acp_migrate.probe.checks import WIRE_RULES
from acp_migrate.probe.checks._prelude import INIT, INIT_LOAD, NEW, WEB, update
from acp_migrate.probe.driver import ProbeRun, auth_hint
from acp_migrate.probe.report import render
from acp_migrate.probe.wire import parse_example

FAST = ("--settle", "0.1", "--list-wait", "60")


def agent(script: str, *args: str) -> list[str]:
    return ["--", sys.executable, str(AGENTS / script), *args]


def test_the_report_says_what_was_exercised_and_why_not() -> None:
    result = probe_agent("refused_load_agent.py")

    why = {c.kind: c.why for c in result.coverage}
    assert why["new"] is None and why["fork"] is None
    assert why["load"].startswith("refused (error -32002: Resource not found")
    assert why["load"].endswith("it may need a session with a transcript, try --prompt")
    text = render(result, "text")
    assert "Exercised: session/new ×1 (1 list), session/fork ×1 (1 list). Not exercised: session/load: refused" in text
    assert result.exit_code == 0  # refused is no defect unless required


def test_require_makes_a_kind_not_exercised_a_failure_naming_it() -> None:
    run = probe_cli(*FAST, "--require", "new,load", *agent("refused_load_agent.py"))
    passing = probe_cli(*FAST, "--require", "new,fork", *agent("refused_load_agent.py"))
    unknown = probe_cli(*FAST, "--require", "lod", *agent("tiny_agent.py"))

    assert run.returncode == 1, run.stdout
    assert "not a pass: --require load: session/load not exercised: refused" in run.stdout
    assert passing.returncode == 0, passing.stdout
    assert unknown.returncode == 2 and "--require lod" in unknown.stderr


def test_not_advertised_is_said_and_a_run_with_no_command_list_is_no_pass() -> None:
    code = (
        f"import sys; sys.path.insert(0, {str(AGENTS)!r}); import tiny_agent as t; "
        "t.TinyAgent.capabilities = {}; t.COMMANDS[:] = []; "
        "t.commands_update = lambda *a: {'jsonrpc': '2.0', 'method': 'note/none', 'params': {}}; t.TinyAgent().serve()"
    )
    from probe_support import SAFETY

    from acp_migrate.probe import ProbeOptions, run_probe

    result = run_probe(ProbeOptions([sys.executable, "-c", code], settle=0.1, **{**SAFETY, "list_wait": 0.2}))

    assert result.findings == [] and result.exit_code == 1
    assert result.unmet == ["nothing tested: the agent sent no command list (the command rules had nothing to judge)"]
    assert {c.kind: c.why for c in result.coverage}["load"] == "not advertised (--all tries it)"
    assert render(result, "text").splitlines()[-1].startswith("No findings, but no pass: nothing tested")


def test_the_silent_break_of_the_sdk_0_7_is_a_finding_on_the_real_sdk() -> None:
    # An agent of the SDK 0.6 age, run unchanged on the suite's SDK: session/new answers null.
    result = probe_agent("sdk_camelcase_agent.py")

    assert result.run.driven, result.run.error
    assert codes(result) == {"ACP113"} and result.exit_code == 1
    [finding] = result.findings
    assert finding.step == "session/new" and "answered with a result null" in finding.message
    assert finding.basis == "spec"


def test_every_finding_is_spec_quoting_its_sentence_or_policy_and_policy_can_be_turned_off() -> None:
    # The ACP spec's page on slash commands, as published (agentclientprotocol.com).
    spec_text = (HERE / "data" / "acp-slash-commands-spec.txt").read_text(encoding="utf-8")
    for rule in WIRE_RULES:
        assert rule.basis in ("spec", "policy"), rule.code
        if rule.basis == "spec" and not rule.spec.startswith(("ACP schema", "ACP transport")):
            assert rule.spec in spec_text, rule.code  # quoted, word for word
    both = probe_cli(*FAST, *agent("acp106_agent.py"))
    spec_only = probe_cli(*FAST, "--ignore", "POLICY", *agent("acp106_agent.py"))

    assert both.returncode == 1 and "ACP106 [policy]" in both.stdout  # duplicate names: the probe's policy
    assert spec_only.returncode == 0, spec_only.stdout


def test_one_defect_repeated_over_lists_and_setups_is_one_finding_with_its_count() -> None:
    result = probe_agent("acp106_agent.py", repeat=3)

    [finding] = result.findings  # one list's duplicate, re-sent by every setup: one defect
    assert finding.code == "ACP106" and finding.step == "session/new"
    assert finding.message.endswith(
        "(the same 12 times: session/new, session/load, session/resume, session/fork; "
        "sessions sess-1, sess-2, sess-3, sess-4, sess-5, sess-6)"
    )
    assert len(json.loads(render(result, "json"))["findings"]) == 1
    assert render(result, "text").count("ACP106") == 1


def test_a_defect_repeated_outside_any_session_is_counted_without_sessions() -> None:
    login_screen = "<- Please visit https://example.com to log in\n"
    result = judge(ProbeRun(parse_example(login_screen * 2 + INIT).frames, ["example"]))

    [finding] = result.findings
    assert finding.code == "ACP110" and finding.message.endswith("(the same 2 times)")


def test_a_null_field_of_a_setup_result_is_a_note_once_not_a_finding() -> None:
    load = '-> {"jsonrpc":"2.0","id":2,"method":"session/load","params":{"sessionId":"s1","cwd":"/w","mcpServers":[]}}\n'
    nulls = '"models":null,"modes":null,"configOptions":null'
    transcript = (
        INIT_LOAD
        + NEW
        + '<- {"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1",%s}}\n' % nulls
        + update("s1", "[" + WEB + "]")
        + load
        + '<- {"jsonrpc":"2.0","id":2,"result":{%s}}\n' % nulls
        + update("s1", "[" + WEB + "]")
    )
    result = judge(ProbeRun(parse_example(transcript).frames, ["example"]))

    assert result.findings == [] and result.exit_code == 0  # the schema allows null: no defect
    [note] = [n for n in result.notes if n.code == "ACP114"]
    assert note.message.startswith("a setup result has modes, models, configOptions: null")
    assert note.message.endswith("(the same 2 times: session/new, session/load; sessions s1)")


def test_the_auth_hint_suggests_a_key_never_an_interactive_login() -> None:
    codex_like = {
        "authMethods": [
            {"id": "chatgpt", "name": "Login with ChatGPT", "description": "Use your ChatGPT login"},
            {"id": "openai-api-key", "name": "Use OPENAI_API_KEY", "description": "Requires setting OPENAI_API_KEY"},
        ]
    }
    browser_only = {"authMethods": [{"id": "oauth-personal", "name": "Log in with Google"}]}

    assert "try --authenticate openai-api-key" in auth_hint(codex_like)
    assert "chatgpt logs in interactively" in auth_hint(codex_like)
    assert "--authenticate" not in auth_hint(browser_only) and "log in once outside the probe" in auth_hint(
        browser_only
    )
    assert auth_hint({}) == ""


def test_replay_judges_a_recording_offline_as_the_run_was_judged(tmp_path) -> None:
    record = tmp_path / "run.jsonl"
    live = probe_cli(*FAST, "--output-format", "json", "--record", str(record), *agent("acp106_agent.py"))
    replayed = probe_cli("--replay", str(record), "--output-format", "json")
    both = probe_cli("--replay", str(record), *agent("tiny_agent.py"))

    assert live.returncode == replayed.returncode == 1
    assert json.loads(live.stdout)["findings"] == json.loads(replayed.stdout)["findings"]
    assert json.loads(live.stdout)["coverage"] == json.loads(replayed.stdout)["coverage"]
    assert both.returncode == 2 and "--replay" in both.stderr
    assert codes(judge(replay(str(record)))) == {"ACP106"}
