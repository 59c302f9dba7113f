"""`acp-migrate probe` as CI runs it: exit codes, the report formats, rule selection,
the output file, and a start that imports nothing of the codemod."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from probe_support import AGENTS, REPO, probe_agent, probe_cli

from acp_migrate.probe.checks import WIRE_RULES
from acp_migrate.probe.report import render, render_errors

SCHEMA = json.loads((REPO / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
FAST = ("--settle", "0.1", "--timeout", "120")


def agent(script: str) -> list[str]:
    return ["--", sys.executable, str(AGENTS / script)]


def test_exit_codes_clean_findings_not_driven() -> None:
    clean = probe_cli(*FAST, *agent("tiny_agent.py"))
    broken = probe_cli(*FAST, *agent("acp102_agent.py"))
    crashed = probe_cli(*FAST, *agent("crashing_agent.py"))

    assert clean.returncode == 0, clean.stderr
    assert clean.stdout.splitlines()[-1].startswith(f"No findings: {len(WIRE_RULES)} wire rules passed")
    assert broken.returncode == 1
    [line] = [line for line in broken.stdout.splitlines() if "ACP102" in line]
    assert re.match(r"session/fork frame \d+ \(session sess-2\): ACP102 \[spec\] available_commands_update", line)
    assert crashed.returncode == 2
    assert "error: could not drive the agent" in crashed.stderr
    assert "RuntimeError: no model configured" in crashed.stderr
    assert "exit code 3" in crashed.stderr  # its own, not one made up by a lost child watcher


def test_json_lists_the_findings_and_the_notes_with_step_session_and_frame() -> None:
    run = probe_cli(*FAST, "--output-format", "json", *agent("acp108_agent.py"))
    noted = probe_cli(*FAST, "--output-format", "json", *agent("refused_load_agent.py"))

    report = json.loads(run.stdout)
    assert run.returncode == 1 and report["exit_code"] == 1 and report["error"] is None
    [finding] = report["findings"]
    assert finding["code"] == "ACP108" and finding["name"] == "session-kind-without-commands"
    assert finding["step"] == "session/load" and finding["session_id"] == "sess-1"
    assert isinstance(finding["frame"], int)
    assert set(finding) == {"code", "name", "basis", "spec", "message", "step", "session_id", "frame"}
    assert finding["basis"] == "policy" and finding["spec"] == ""
    assert report["caps"] == []
    assert report["coverage"]["load"] == {"exercised": 1, "lists": 0, "why": None}
    refused = json.loads(noted.stdout)
    assert noted.returncode == 0 and refused["findings"] == []
    steps = [(n["step"], n["code"], n["session_id"]) for n in refused["notes"]]
    assert steps == [("session/load", None, "sess-1"), ("session/resume", None, "sess-1")]
    assert "no conversation history for sess-1" in refused["notes"][0]["message"]


def test_exit_zero_turns_findings_into_0_never_a_failure_to_drive() -> None:
    broken = probe_cli(*FAST, "--exit-zero", *agent("acp102_agent.py"))
    crashed = probe_cli(*FAST, "--exit-zero", *agent("crashing_agent.py"))

    assert broken.returncode == 0 and "ACP102" in broken.stdout
    assert crashed.returncode == 2


def test_select_and_ignore() -> None:
    ignored = probe_cli(*FAST, "--ignore", "ACP108", *agent("acp108_agent.py"))
    selected = probe_cli(*FAST, "--select", "ACP101,ACP102", *agent("acp108_agent.py"))
    unknown = probe_cli(*FAST, "--select", "ACP999", *agent("acp108_agent.py"))

    assert ignored.returncode == 0 and selected.returncode == 0
    assert selected.stdout.splitlines()[-1].startswith("No findings: 2 wire rules passed")
    assert unknown.returncode == 2 and "ACP999" in unknown.stderr


def test_output_file(tmp_path: Path) -> None:
    report = tmp_path / "out" / "probe.json"
    report.parent.mkdir()

    run = probe_cli(*FAST, "--output-format", "json", "-o", str(report), *agent("acp106_agent.py"))

    assert run.returncode == 1 and run.stdout == ""
    [finding] = json.loads(report.read_text())["findings"]  # one list re-sent by every setup: one defect
    assert finding["code"] == "ACP106" and "(the same 4 times: " in finding["message"]


def test_the_agents_own_options_follow_its_command() -> None:
    # Everything after CMD is the agent's, even what looks like the probe's options.
    code = (
        f"import sys; sys.path.insert(0, {str(AGENTS)!r}); import tiny_agent; "
        "sys.exit(5) if sys.argv[1:] != ['--timeout', '1', '--'] else tiny_agent.TinyAgent().serve()"
    )

    with_dashes = probe_cli(*FAST, "--", sys.executable, "-c", code, "--timeout", "1", "--")
    without = probe_cli(*FAST, sys.executable, "-c", code, "--timeout", "1", "--")

    assert with_dashes.returncode == 0, with_dashes.stderr
    assert without.returncode == 0, without.stderr


def test_sarif_validates_and_locates_findings_by_step_session_and_frame() -> None:
    result = probe_agent("acp102_agent.py")

    log = json.loads(render(result, "sarif"))

    jsonschema.validate(log, SCHEMA)
    [run] = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules][:2] == ["ACP101", "ACP102"]
    [entry] = run["results"]
    assert rules[entry["ruleIndex"]]["id"] == entry["ruleId"] == "ACP102"
    [location] = entry["locations"]
    assert location["logicalLocations"][0]["fullyQualifiedName"].startswith("session/fork frame ")
    assert location["physicalLocation"]["artifactLocation"]["uri"].endswith("acp102_agent.py")
    assert entry["properties"]["sessionId"] == "sess-2"
    assert run["invocations"][0]["executionSuccessful"] is True


def test_sarif_of_an_agent_that_could_not_be_driven_is_valid() -> None:
    log = json.loads(render(probe_agent("crashing_agent.py"), "sarif"))

    jsonschema.validate(log, SCHEMA)
    [invocation] = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    assert "no model configured" in invocation["toolExecutionNotifications"][0]["message"]["text"]


def test_github_annotations() -> None:
    text = render(probe_agent("acp103_agent.py"), "github")

    [line] = text.splitlines()  # the agent's fork is its session/new: the same defect twice
    assert line.startswith("::error title=ACP103 session/new frame ")
    assert "::availableCommands is null" in line
    assert line.endswith("(the same 2 times: session/new, session/fork; sessions sess-1, sess-2)")


def test_timeline_shows_each_sessions_frames_and_marks_the_broken_one() -> None:
    result = probe_agent("acp102_agent.py")
    [finding] = result.findings

    text = render(result, "timeline")

    lines = text.splitlines()
    assert lines[0].startswith("agent: ")
    assert "connection" in lines and "session sess-1 (session/new)" in lines
    assert "session sess-2 (session/fork)" in lines
    row = re.compile(r"  #(\d+) +[+-]\d+ ms  (client → agent|agent → client)  \S")
    rows = [line for line in lines if line.startswith("  #")]
    assert rows and all(row.match(line) for line in rows)
    [marked] = [line for line in rows if "✗" in line]
    assert marked.startswith(f"  #{finding.frame} ")
    assert "agent → client  session/update available_commands_update [web, test]" in marked
    assert marked.endswith("✗ ACP102 commands-before-setup-response")
    fork_rows = lines[lines.index("session sess-2 (session/fork)") + 1 :]
    assert "session/fork (id 4)" in fork_rows[0] and f"#{finding.frame} " in fork_rows[1]


def test_mermaid_is_a_sequence_diagram_of_the_same_frames() -> None:
    result = probe_agent("acp102_agent.py")

    text = render(result, "mermaid")

    lines = text.splitlines()
    assert lines[0] == "sequenceDiagram"
    assert "    Note over C,A: session sess-2 (session/fork)" in lines
    messages = [line for line in lines if re.match(r"    (C->>A|A-->>C): ", line)]
    assert len(messages) == len(result.transcript.frames)
    [note] = [i for i, line in enumerate(lines) if "✗" in line]
    assert lines[note] == "    Note over C,A: ✗ ACP102 commands-before-setup-response"
    assert lines[note - 1].startswith(
        f"    A-->>C: {result.findings[0].frame} session/update available_commands_update"
    )
    assert note > lines.index("    Note over C,A: session sess-2 (session/fork)")
    assert not any(";" in line or "#" in line for line in messages)


CODEMOD = (
    "libcst",
    "acp_migrate.engine",
    "acp_migrate.rules",
    "acp_migrate.cst",
    "acp_migrate.api",
    "acp_migrate.config",
)


def _imported_by(*args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """`acp-migrate probe ARGS` as the command runs it (through __main__), and the
    top-level packages and `acp_migrate` modules it imported."""
    script = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('IMPORTED', *sorted(sys.modules), file=sys.stderr))\n"
        f"sys.argv = ['acp-migrate', 'probe', *{list(args)!r}]\n"
        "from acp_migrate.__main__ import main\n"
        "main()\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    [line] = [line for line in run.stderr.splitlines() if line.startswith("IMPORTED ")]
    modules = set(line.split()[1:])
    return run, {m.split(".")[0] for m in modules} | {m for m in modules if m.startswith("acp_migrate.")}


def test_the_probe_imports_nothing_of_the_codemod() -> None:
    run, imported = _imported_by("--settle", "0.1", "--", sys.executable, str(AGENTS / "tiny_agent.py"))
    helped, started = _imported_by("--help")

    assert run.returncode == 0 and "No findings" in run.stdout, run.stderr
    assert not {m for m in imported if m.startswith(CODEMOD)}
    assert not imported & {"acp_migrate.cli", "rich", "acp"}
    assert "pydantic" in imported  # the command lists, checked against probe/schema.py
    # Its start: typer and the command, not the run, the rules or pydantic.
    assert helped.returncode == 0 and "Usage: acp-migrate probe" in helped.stdout
    assert not started & {"pydantic", "asyncio", "acp_migrate.probe.driver", "acp_migrate.probe.checks"}


def test_the_whole_command_line_runs_the_same_probe_command() -> None:
    from typer.testing import CliRunner

    from acp_migrate.cli import app

    result = CliRunner().invoke(app, ["probe", "--ignore", "ACP102", *FAST, *agent("acp101_agent.py")])
    usage = CliRunner().invoke(app, ["probe", "--max-frames", "0", *agent("acp101_agent.py")])

    assert result.exit_code == 1, result.output
    assert "ACP101" in result.output
    assert usage.exit_code == 2 and "--max-frames" in usage.output


def test_probe_help_fits_80_columns_the_same_from_both_entries() -> None:
    from typer.testing import CliRunner

    from acp_migrate.cli import app

    run = probe_cli("-h")
    listed = CliRunner().invoke(app, ["probe", "--help"], env={"COLUMNS": "80"})

    assert run.returncode == 0 and run.stdout.startswith("Usage: acp-migrate probe [OPTIONS] [CMD [ARGS]...]")
    assert listed.exit_code == 0
    options = re.compile(r"^  (?:-\w, )?(--[\w-]+)", re.MULTILINE)
    assert options.findall(listed.stdout) == options.findall(run.stdout) and len(options.findall(run.stdout)) == 27
    assert max(len(line) for text in (run.stdout, listed.stdout) for line in text.splitlines()) <= 80
    assert "x>=" not in run.stdout  # no `[x>=1]` ranges, as the other commands
    for option in ("--all", "--prompt TEXT", "--burst", "--output-format FORMAT", "--max-findings N", "Exit codes"):
        assert option in run.stdout


@pytest.mark.parametrize("bad", [["--env", "NOEQUALS"], ["--cwd", "/nonexistent/folder"], []])
def test_bad_options_exit_2(bad: list[str]) -> None:
    run = probe_cli(*bad, *(agent("tiny_agent.py") if bad else []))

    assert run.returncode == 2 and run.stderr.startswith("error: ")


def test_record_writes_every_frame_even_one_longer_than_any_read_buffer(tmp_path: Path) -> None:
    # A 1 MB description: stdout is read in chunks, so no line is too long to record.
    code = (
        f"import sys; sys.path.insert(0, {str(AGENTS)!r}); import tiny_agent as t; "
        "t.COMMANDS[1] = dict(t.TEST, description='x' * 1_000_000); t.TinyAgent().serve()"
    )
    record = tmp_path / "wire.jsonl"

    run = probe_cli(*FAST, "--record", str(record), "--", sys.executable, "-c", code)

    assert run.returncode == 0, run.stderr
    frames = [json.loads(line) for line in record.read_text().splitlines()]
    assert [f["frame"] for f in frames] == list(range(len(frames)))
    assert {f["direction"] for f in frames} == {"client->agent", "agent->client"}
    assert max(len(f["raw"]) for f in frames) > 1_000_000
    assert json.loads(frames[0]["raw"])["method"] == "initialize"


def test_a_failed_forks_frames_come_after_session_new_in_its_sessions_timeline() -> None:
    result = probe_agent("refused_load_agent.py", "fork")

    lines = render(result, "timeline").splitlines()
    session = lines.index("session sess-1 (session/new)")
    rows = [line for line in lines[session + 1 :] if line.startswith("  #")]
    indexes = [int(line.split()[0][1:]) for line in rows]
    assert indexes == sorted(indexes)
    assert "session/new (id 1)" in rows[0]
    assert any("error session/fork" in line and "Resource not found" in line for line in rows)
    connection = lines[lines.index("connection") + 1 : lines.index("connection") + 3]
    assert all("initialize" in line for line in connection)  # the fork is not the connection's
    [fork_note] = [n for n in result.notes if n.step == "session/fork"]
    assert fork_note.session_id == "sess-1"


def test_mermaid_has_one_note_a_frame_and_timeline_marks_notes() -> None:
    result = probe_agent("acp105_agent.py")  # a name with a space (a finding) and input: null (a note)

    lines = render(result, "mermaid").splitlines()
    timeline = render(result, "timeline")

    notes = [line for line in lines if "ACP105" in line]
    lists = result.transcript.command_lists
    assert len(notes) == len(lists) == 4
    assert all(
        line == "    Note over C,A: ✗ ACP105 invalid-command-item, note ACP105 invalid-command-item" for line in notes
    )
    assert timeline.count("✗ ACP105 invalid-command-item  · note ACP105 invalid-command-item") == 4


def test_github_and_sarif_carry_the_notes() -> None:
    result = probe_agent("refused_load_agent.py")

    github = render(result, "github").splitlines()
    log = json.loads(render(result, "sarif"))

    assert [line.split("::")[1].split(" ")[0] for line in github] == ["notice", "notice"]
    assert "no conversation history for sess-1" in github[0]
    jsonschema.validate(log, SCHEMA)
    [invocation] = log["runs"][0]["invocations"]
    texts = [n["message"]["text"] for n in invocation["toolExecutionNotifications"]]
    assert len(texts) == 2 and all(n["level"] == "note" for n in invocation["toolExecutionNotifications"])
    assert "no conversation history" in texts[0]
    noted = json.loads(render(probe_agent("null_input_agent.py"), "sarif"))
    jsonschema.validate(noted, SCHEMA)
    assert {r["level"] for r in noted["runs"][0]["results"]} == {"note"}


def test_the_scenario_options_reach_the_run(tmp_path: Path) -> None:
    record = tmp_path / "wire.jsonl"

    run = probe_cli(
        *FAST,
        "--authenticate",
        "api-key",
        "--prompt",
        "hi",
        "--burst",
        "--record",
        str(record),
        *agent("auth_agent.py"),
    )

    assert run.returncode == 0, run.stdout + run.stderr
    frames = [json.loads(line) for line in record.read_text().splitlines()]
    sent = [json.loads(f["raw"]) for f in frames if f["direction"] == "client->agent"]
    methods = [m["method"] for m in sent if "method" in m]
    assert methods[:5] == ["initialize", "authenticate", "session/new", "session/new", "session/prompt"]
    assert methods.count("session/fork") == 2  # --burst without --repeat: two of each


@pytest.mark.parametrize("bad", [["--repeat", "0"], ["--max-frames", "-1"], ["--max-findings", "x"]])
def test_bad_counts_exit_2(bad: list[str]) -> None:
    run = probe_cli(*bad, *agent("tiny_agent.py"))

    assert run.returncode == 2 and f"Invalid value for '{bad[0]}'" in run.stderr


@pytest.mark.parametrize("mode", [(), ("new",)])
def test_agent_text_is_escaped_in_every_format(mode: tuple[str, ...]) -> None:
    # A third-party agent's error texts and stderr must not forge a workflow command
    # or drive the terminal, whatever the format.
    result = probe_agent("hostile_text_agent.py", *mode)
    forged = "forged by the agent"
    formats = ("text", "timeline", "mermaid", "json", "sarif", "github")

    outputs = {output_format: render(result, output_format) for output_format in formats}
    outputs["stderr"] = render_errors(result)

    assert result.run.driven is not bool(mode) and (forged in result.run.stderr_tail) is bool(mode)

    assert any(forged in text for text in outputs.values())
    # A line break in the agent's text starts no line of its own.
    assert all(
        line.startswith(("note: ", "No findings: ", "The agent could not", "Exercised: "))
        for line in outputs["text"].splitlines()
    )
    for output_format, text in outputs.items():
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f]", text), output_format
        lines = text.splitlines()
        if output_format == "github":
            # Each line is one of the probe's annotations; the agent's text stays in its message.
            assert all(re.match(r"::(error|warning|notice) title=[^:]*::", line) for line in lines), text
        else:
            assert not [line for line in lines if line.lstrip().startswith("::")], output_format
