"""No false finding on a compliant agent at any latency, alone or in bursts; a racy one
fails every time. The agents' delays are the probe's own progress (a list goes out after
N more requests, or when the probe starts waiting for the lists it is owed: the test
releases them then, through a FIFO), never a clock; the probe's wait for owed lists is
bounded, and generous (a safety net: nothing here depends on it running out)."""

from __future__ import annotations

import os

import pytest
from probe_support import codes, probe_agent

PLAIN = {}
REPEATED = {"repeat": 3}
BURST = {"repeat": 3, "burst": True}
RUNS = {"alone": PLAIN, "repeat": REPEATED, "burst": BURST}


def releaser(fifo: str):
    """What the probe calls as it starts waiting for owed lists: the token the agent waits for."""

    def release() -> None:
        handle = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # the agent opened it to read at its start
        os.write(handle, b"go\n")
        os.close(handle)

    return release


def probe_delayed(tmp_path, after: int, *flags: str, **options):
    fifo = str(tmp_path / "release")
    os.mkfifo(fifo)
    return probe_agent("delayed_lists_agent.py", str(after), fifo, *flags, on_list_wait=releaser(fifo), **options)


@pytest.mark.parametrize("run", RUNS, ids=list(RUNS))
@pytest.mark.parametrize("after", [0, 1, 2, 5, 99], ids=lambda n: f"after-{n}-requests")
@pytest.mark.parametrize("prompt", [None, "hi"], ids=["fresh", "prompted"])
def test_a_compliant_agent_passes_whenever_its_lists_come(tmp_path, after, run, prompt) -> None:
    # 99: no list before the probe waits for them, each one during that wait.
    result = probe_delayed(tmp_path, after, prompt=prompt, **RUNS[run])

    assert result.run.driven, result.run.error
    assert result.findings == [] and result.unmet == [], [f.message for f in result.findings] + result.unmet
    assert result.exit_code == 0
    setups = result.transcript.setup_steps
    assert [len(result.transcript.lists_of(s)) for s in setups] == [1] * len(setups)  # each its own list
    assert not any("got no command list" in n.message for n in result.notes)


@pytest.mark.parametrize("run", ["repeat", "burst"])
def test_a_compliant_agent_answering_a_whole_burst_before_its_lists_passes(tmp_path, run) -> None:
    result = probe_delayed(tmp_path, 0, "--lists-last", **RUNS[run])

    assert result.exit_code == 0, [f.message for f in result.findings] + result.unmet
    loads = [s for s in result.transcript.setup_steps if s.method == "session/load"]
    if run == "burst":  # the three answers came before the three lists
        lists = [c for c in result.transcript.command_lists if c.session_id == loads[0].session_id]
        assert max(s.response.index for s in loads) < min(
            c.frame.index for c in lists if c.frame.index > loads[0].request.index
        )
    assert [len(result.transcript.lists_of(s)) for s in loads] == [1, 1, 1]


# burst_race_agent races only in a burst (its one-by-one runs: test_probe_scenarios).
RACES = [("acp102_agent.py", run) for run in RUNS] + [("burst_race_agent.py", "burst")]


@pytest.mark.parametrize("script, run", RACES)
def test_a_racy_agent_fails_every_time(script, run) -> None:
    results = [probe_agent(script, **RUNS[run]) for _ in range(3)]

    assert [r.exit_code for r in results] == [1, 1, 1]
    assert all(codes(r) == {"ACP102"} for r in results), [[f.message for f in r.findings] for r in results]


def test_a_list_that_never_comes_is_missing_only_once_the_stated_bound_has_passed() -> None:
    result = probe_agent("acp108_agent.py", list_wait=0.2)

    assert codes(result) == {"ACP108"}
    [waited] = [n.message for n in result.notes if "--list-wait" in n.message]
    assert "within --list-wait 0.2 s" in waited
