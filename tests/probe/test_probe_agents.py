"""The probe over purpose-built agents: each breaks one rule and gets exactly that code;
the clean one passes; stuck, hanging and crashing ones end in exit 2, never a hang.

The agents write each answer and its updates in one write, so what the probe reads
is the same on a slow machine; no test asserts a duration (timeouts here only cut a
run that would hang, or make the probe give up on a stuck agent).
"""

from __future__ import annotations

import sys

import pytest
from probe_support import AGENTS, codes, ends, probe_agent, stuck_probe

RULE_AGENTS = sorted(path.name for path in AGENTS.glob("acp1*_agent.py"))


def test_there_is_an_agent_for_every_rule() -> None:
    from acp_migrate.probe.checks import WIRE_RULES

    assert [name.split("_")[0].upper() for name in RULE_AGENTS] == [c.code for c in WIRE_RULES]


def test_the_clean_agent_passes_every_step() -> None:
    result = probe_agent("tiny_agent.py")

    assert result.run.driven, result.run.error
    assert result.findings == [] and result.exit_code == 0
    steps = [step.method for step in result.transcript.steps]
    assert steps == [
        "initialize",
        "session/new",
        "session/load",
        "session/resume",
        "session/fork",
        "session/close",
        "session/close",
    ]
    assert all(not step.failed for step in result.transcript.steps)


@pytest.mark.parametrize("script", RULE_AGENTS)
def test_each_purpose_built_agent_breaks_exactly_its_rule(script: str) -> None:
    from acp_migrate.probe.checks import NOTE, WIRE_RULES

    code = script.split("_")[0].upper()
    [check] = [c for c in WIRE_RULES if c.code == code]
    # ACP108's agent never sends the lists the probe waits for: the bound decides
    # nothing there, a short one keeps the test short.
    result = probe_agent(script, **({"list_wait": 0.5} if code == "ACP108" else {}))

    assert result.run.driven, result.run.error
    if check.level == NOTE:  # a rule that only notes: seen, and no verdict from it
        assert result.findings == [] and result.exit_code == 0
        assert {n.code for n in result.notes if n.code} == {code}, [n.message for n in result.notes]
    else:
        assert codes(result) == {code}, [f.message for f in result.findings]
        assert result.exit_code == 1


def test_a_prompt_turn_ends_with_the_client_refusing_permission_and_files() -> None:
    result = probe_agent("prompting_agent.py", prompt="/web acp")

    assert result.exit_code == 0, (result.run.error, result.findings)
    prompt = next(step for step in result.transcript.steps if step.method == "session/prompt")
    assert prompt.response.result == {"stopReason": "end_turn"}
    replies = {
        f.message["id"]: f.message for f in result.transcript.frames if f.is_response and f.direction == "client->agent"
    }
    assert replies["perm-1"]["result"] == {"outcome": {"outcome": "selected", "optionId": "no"}}
    assert replies["read-1"]["error"]["code"] == -32601


def test_all_tries_the_session_kinds_an_agent_does_not_advertise() -> None:
    # The example agent of the TypeScript SDK advertises nothing; this one neither.
    script = AGENTS / "tiny_agent.py"
    code = f"import sys; sys.path.insert(0, {str(AGENTS)!r}); import tiny_agent as t; t.TinyAgent.capabilities = {{}}; t.TinyAgent().serve()"
    from probe_support import SAFETY

    from acp_migrate.probe import ProbeOptions, run_probe

    plain = run_probe(ProbeOptions([sys.executable, "-c", code], settle=0.1, **SAFETY))
    tried = run_probe(ProbeOptions([sys.executable, "-c", code], settle=0.1, try_all=True, **SAFETY))

    assert [s.method for s in plain.transcript.steps] == ["initialize", "session/new"]
    assert len(plain.run.notes) == 4 and plain.exit_code == 0
    assert {s.method for s in tried.transcript.steps} > {"session/load", "session/fork", "session/close"}
    assert tried.exit_code == 0 and script.exists()


def test_an_agent_that_does_not_answer_initialize_is_killed_with_its_children(tmp_path) -> None:
    pid_file = tmp_path / "child.pid"

    result = probe_agent("stuck_agent.py", str(pid_file), initialize_timeout=1.0)

    assert result.exit_code == 2
    assert "no answer to initialize within 1 s" in result.run.error
    assert "stuck agent: ignoring everything" in result.run.stderr_tail
    child = int(pid_file.read_text())
    assert ends(child), "the agent's child outlived the probe"


def test_an_agent_that_crashes_is_reported_with_its_stderr() -> None:
    result = probe_agent("crashing_agent.py")

    assert result.exit_code == 2
    assert "session/new" in result.run.error and "exit code 3" in result.run.error
    assert "RuntimeError: no model configured" in result.run.stderr_tail


def test_the_global_timeout_ends_a_run_that_hangs() -> None:
    result = probe_agent("hanging_agent.py", timeout=1.5)

    assert result.exit_code == 2
    assert "did not finish within --timeout 1.5 s" in result.run.error
    assert [s.method for s in result.transcript.steps] == ["initialize", "session/new"]


def test_a_command_that_does_not_exist_is_exit_2() -> None:
    from acp_migrate.probe import ProbeOptions, run_probe

    result = run_probe(ProbeOptions(["/nonexistent/agent"]))

    assert result.exit_code == 2 and "could not start" in result.run.error


def test_sigterm_ends_the_probe_and_the_agents_process_group(tmp_path) -> None:
    import signal

    probe, child = stuck_probe(tmp_path)
    probe.send_signal(signal.SIGTERM)
    _, stderr = probe.communicate(timeout=60)

    assert probe.returncode == 143, stderr
    assert ends(child), "the agent's child outlived the probe"
