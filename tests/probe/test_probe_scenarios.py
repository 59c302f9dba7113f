"""The scenarios that provoke what real agents get wrong, each over a purpose-built agent
whose behaviour depends on the order of what it reads, never on time: a prompt before the
setups, --repeat, --burst, --authenticate, late lists; and the findings a person reads
(refused setups and `input: null` as notes), the same verdict run after run."""

from __future__ import annotations

from probe_support import codes, probe_agent

from acp_migrate.probe.report import render


def methods(result) -> list[str]:
    return [step.method for step in result.transcript.steps]


def test_the_prompt_comes_before_the_setups_so_forks_act_on_a_session_with_a_transcript() -> None:
    fresh = probe_agent("prompted_fork_race_agent.py")
    prompted = probe_agent("prompted_fork_race_agent.py", prompt="hello")

    assert fresh.exit_code == 0, [f.message for f in fresh.findings]  # no prompt: the race stays hidden
    assert methods(prompted)[:4] == ["initialize", "session/new", "session/prompt", "session/load"]
    [finding] = prompted.findings
    assert (finding.code, finding.step, finding.session_id) == ("ACP102", "session/fork", "sess-2")
    assert prompted.exit_code == 1


def test_repeat_sets_each_kind_up_n_times_and_closes_every_session() -> None:
    result = probe_agent("tiny_agent.py", prompt="hi", repeat=3)

    assert result.exit_code == 0, [f.message for f in result.findings]
    steps = methods(result)
    for kind in ("session/new", "session/load", "session/resume", "session/fork"):
        assert steps.count(kind) == 3, steps
    assert steps.count("session/close") == 6  # three new sessions, three forks
    forks = [s for s in result.transcript.steps if s.method == "session/fork"]
    assert {s.request.params["sessionId"] for s in forks} == {"sess-1"}  # forks of the prompted session
    assert len({s.session_id for s in forks}) == 3


def test_a_race_that_only_a_burst_provokes() -> None:
    one_by_one = probe_agent("burst_race_agent.py", repeat=2)
    burst = probe_agent("burst_race_agent.py", repeat=2, burst=True)
    clean = probe_agent("tiny_agent.py", repeat=2, burst=True)  # answers each in turn: no race

    assert one_by_one.exit_code == 0, [f.message for f in one_by_one.findings]
    assert clean.exit_code == 0, [f.message for f in clean.findings]
    assert burst.exit_code == 1 and codes(burst) == {"ACP102"}, [f.message for f in burst.findings]
    # One a setup kind: the second of each pair overtook its response.
    assert sorted(f.step for f in burst.findings) == sorted(
        ["session/new", "session/load", "session/resume", "session/fork"]
    )
    # The burst's requests went out before any of their answers.
    forks = [s for s in burst.transcript.steps if s.method == "session/fork"]
    assert forks[1].request.index < forks[0].response.index


def test_an_agent_that_needs_authentication() -> None:
    without = probe_agent("auth_agent.py")
    wrong = probe_agent("auth_agent.py", authenticate="oauth")
    authenticated = probe_agent("auth_agent.py", authenticate="api-key")

    assert without.exit_code == 2
    assert "Authentication required" in without.run.error and "try --authenticate api-key" in without.run.error
    assert wrong.exit_code == 2 and "advertises no such auth method (it advertises: api-key)" in wrong.run.error
    assert authenticated.exit_code == 0, (authenticated.run.error, authenticated.findings)
    assert methods(authenticated)[:3] == ["initialize", "authenticate", "session/new"]
    [step] = [s for s in authenticated.transcript.steps if s.method == "authenticate"]
    assert step.request.params == {"methodId": "api-key"}


def test_a_list_sent_during_the_prompts_turn_is_not_late_and_the_verdict_holds_run_after_run() -> None:
    runs = [probe_agent("late_new_agent.py", prompt="hi") for _ in range(2)]

    for result in runs:
        assert result.exit_code == 0, [f.message for f in result.findings]
        assert [n for n in result.notes if n.code == "ACP112"] == []
        [listed] = [c for c in result.transcript.command_lists if c.session_id == "sess-1"][:1]
        assert result.transcript.setup_of(listed).method == "session/new"
    first, second = [(r.exit_code, sorted(codes(r)), [n.code for n in r.notes]) for r in runs]
    assert first == second


def test_a_late_list_landing_during_the_next_setup_of_its_session_is_still_its_setups() -> None:
    result = probe_agent("late_new_agent.py")  # no prompt: the list comes during session/load

    assert result.exit_code == 0, [f.message for f in result.findings]
    [note] = [n for n in result.notes if n.code == "ACP112"]
    assert (note.step, note.session_id) == ("session/new", "sess-1")
    assert "during session/load" in note.message


def test_a_late_load_list_is_not_credited_to_the_step_running_then() -> None:
    result = probe_agent("acp112_agent.py")

    [note] = result.notes
    assert (note.code, note.step, note.session_id) == ("ACP112", "session/load", "sess-1")
    assert "during session/resume" in note.message
    assert "note: session/load frame" in render(result, "text")


def test_a_refused_setup_is_a_note_with_the_errors_details_not_a_finding() -> None:
    refused = probe_agent("refused_load_agent.py")
    empty = probe_agent("acp108_agent.py", list_wait=0.5)  # succeeds, without commands: the real finding

    assert refused.exit_code == 0 and refused.findings == []
    load, resume = refused.notes
    assert (load.step, load.session_id, load.code) == ("session/load", "sess-1", None)
    assert "refused by the agent" in load.message
    assert "error -32002: Resource not found (no conversation history for sess-1)" in load.message
    assert resume.step == "session/resume"
    text = render(refused, "text")
    assert "note: session/load frame" in text and "no conversation history for sess-1" in text
    assert text.splitlines()[-1].startswith("No findings")
    assert codes(empty) == {"ACP108"}
    # The probe waited for the list still owed, in vain.
    waited = [n.message for n in empty.notes if "--list-wait" in n.message]
    assert waited == ["1 setup (session/load) got no command list within --list-wait 0.5 s after the last setup"]


def test_input_null_is_a_note_once_a_list_never_a_finding() -> None:
    result = probe_agent("null_input_agent.py")

    assert result.exit_code == 0 and result.findings == []
    notes = [n for n in result.notes if n.code == "ACP105"]
    lists = result.transcript.command_lists
    [note] = notes  # not one an item, nor one a list: new, load, resume and fork send the same
    assert note.message.startswith("4 of 4 commands for session ") and len(lists) == 4
    assert note.message.endswith("(the same 4 times: session/new, session/load, session/resume, session/fork; sessions sess-1, sess-2)")


def test_repeated_refusals_are_one_note_with_a_count() -> None:
    result = probe_agent("refused_load_agent.py", repeat=3)

    loads = [n for n in result.notes if n.step == "session/load"]
    assert len(loads) == 1 and loads[0].message.endswith("(the same 3 times: sessions sess-1)")


def test_a_turn_that_does_not_end_is_cancelled_and_the_setups_still_run() -> None:
    result = probe_agent("endless_prompt_agent.py", prompt="hi", prompt_timeout=0.5)

    assert result.exit_code == 0, (result.run.error, [f.message for f in result.findings])
    [prompt] = [s for s in result.transcript.steps if s.method == "session/prompt"]
    assert prompt.response.result == {"stopReason": "cancelled"}
    cancel = next(f for f in result.transcript.frames if f.method == "session/cancel")
    assert prompt.request.index < cancel.index < prompt.response.index
    assert methods(result)[3:6] == ["session/load", "session/resume", "session/fork"]
    assert any("the probe sent session/cancel (it ended the turn)" in n.message for n in result.notes)
