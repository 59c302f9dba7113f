"""The probe stays bounded whatever the agent does: caps on frames, bytes, findings and the
report (each stated when reached), a 64 MB line read whole in linear time, the whole
process tree ended (a grandchild that left the group included), the agent's end told
as it happened, Ctrl-C without a traceback. No test measures time: the timeouts only
keep a broken probe from hanging the suite."""

from __future__ import annotations

import json
import signal
import sys

from probe_support import AGENTS, ends, probe_agent, probe_cli, stuck_probe

from acp_migrate.probe.report import render

FAST = ("--settle", "0.1", "--timeout", "120")


def test_a_stdout_flood_stops_at_the_frame_cap_at_once_and_every_report_says_so() -> None:
    # No request may wait out its timeout after the cap: with an hour for each, a probe
    # that did would end at the run's --timeout instead, and say so.
    result = probe_agent("flood_agent.py", max_frames=2000, request_timeout=3600.0)

    assert result.exit_code == 2
    assert "the run reached 2000 frames (--max-frames)" in result.run.error
    assert len(result.transcript.frames) == 2000
    caps = result.caps
    assert any("cap reached: the run reached 2000 frames" in cap for cap in caps)
    text = render(result, "text")
    assert "cap reached: the run reached 2000 frames (--max-frames)" in text
    assert "cap reached" in render(result, "timeline") and "cap reached" in render(result, "mermaid")
    assert json.loads(render(result, "json"))["caps"] == caps


def test_findings_beyond_the_cap_are_counted_not_shown() -> None:
    run = probe_cli(
        *FAST, "--max-frames", "600", "--max-findings", "50", "--", sys.executable, str(AGENTS / "flood_agent.py")
    )

    lines = run.stdout.splitlines()
    assert run.returncode == 2
    assert sum(": ACP10" in line for line in lines) == 50  # ACP105 a list (ACP107's repeats: one finding)
    [cap] = [line for line in lines if "--max-findings" in line]
    assert cap.startswith("cap reached: the first 50 of ") and int(cap.split()[6]) > 500
    assert len(run.stdout) < 100_000


def test_the_bytes_cap() -> None:
    result = probe_agent("flood_agent.py", max_bytes=1 << 20)

    assert result.exit_code == 2 and "more than 1048576 bytes on stdout (--max-bytes)" in result.run.error


def test_a_64_mb_line_is_read_whole_and_the_run_goes_on() -> None:
    result = probe_agent("big_line_agent.py")

    assert result.run.driven, result.run.error
    assert result.exit_code == 0, [f.message for f in result.findings]
    init = result.transcript.initialize.response
    assert len(init.raw) > 64 << 20 and init.result["_meta"]["padding"] == "x" * (64 << 20)
    assert [s.method for s in result.transcript.steps][:3] == ["initialize", "session/new", "session/load"]
    assert max(len(line) for line in render(result, "timeline").splitlines()) < 1000


def test_a_grandchild_that_left_the_process_group_and_holds_stdout_is_ended(tmp_path) -> None:
    pid_file = tmp_path / "grandchild.pid"

    result = probe_agent("grandchild_agent.py", str(pid_file))

    assert result.exit_code == 0, (result.run.error, result.findings)
    grandchild = int(pid_file.read_text())
    assert ends(grandchild), "the grandchild outlived the probe"


def test_an_agent_the_probe_killed_is_not_said_to_have_exited_with_minus_9() -> None:
    killed = probe_agent("closes_stdout_agent.py")
    crashed = probe_agent("crashing_agent.py")

    assert killed.exit_code == 2
    assert "closed its stdout" in killed.run.error and "it did not exit: the probe killed it" in killed.run.error
    assert "-9" not in killed.run.error
    assert "the agent exited, exit code 3" in crashed.run.error


def test_ctrl_c_while_waiting_for_initialize_ends_the_agent_without_a_traceback(tmp_path) -> None:
    probe, child = stuck_probe(tmp_path)
    probe.send_signal(signal.SIGINT)
    _, stderr = probe.communicate(timeout=60)

    assert probe.returncode == 130, stderr
    assert "Traceback" not in stderr and "unhandled exception" not in stderr, stderr
    assert "interrupted" in stderr
    assert ends(child), "the agent's child outlived the probe"


def test_a_report_over_the_size_cap_is_cut_at_a_line_and_says_so(monkeypatch) -> None:
    import acp_migrate.probe.report as report

    result = probe_agent("flood_agent.py", max_frames=3000)
    whole = render(result, "timeline")
    monkeypatch.setattr(report, "MAX_REPORT_CHARS", 10_000)

    cut = render(result, "timeline")
    document = json.loads(render(result, "json"))  # JSON is never cut: its caps bound it

    assert len(whole) > 10_000
    body, last = cut[: cut.rstrip("\n").rfind("\n") + 1], cut.splitlines()[-1]
    assert len(body) <= 10_000 and whole.startswith(body)
    assert last == f"cap reached: the report was cut at {len(body)} of {len(whole)} characters"
    assert len(document["findings"]) <= 1000


def test_a_frame_nested_too_deep_to_parse_is_a_malformed_frame_not_a_closed_stdout() -> None:
    result = probe_agent("deep_frame_agent.py")

    assert result.run.driven, result.run.error
    [finding] = result.findings
    assert finding.code == "ACP110" and finding.frame == 1
    assert "nested too deeply" in finding.message
    assert all(render(result, output_format) for output_format in ("text", "json", "timeline", "mermaid", "sarif"))
