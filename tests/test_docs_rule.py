"""ACP006 on documentation: what the golden cases cannot show (a run over a project with
excluded folders, suppressions dropping a fix, the bytes of the file kept)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from support.command import run_acp_migrate

from acp_migrate.engine.analysis.codemod import analyze_source

BARE = (
    "Plugins appear as AvailableCommand in AgentCapabilities:\n"
    "```json\n"
    "{\n"
    '  "slash_commands": [{"name": "deploy"}]\n'
    "}\n"
    "```\n"
)
NESTED = '```json\n{"agentCapabilities": {"loadSession": true, "slashCommands": [{"name": "web"}]}}\n```\n'


def _acp_migrate(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_acp_migrate(*args, cwd=cwd, text=True)


def test_an_excluded_history_folder_is_left_as_written(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.acp-migrate]\nextend-exclude = ["docs/proposals"]\n')
    rfc = tmp_path / "docs/proposals/draft/P-0032-session-commands.md"
    page = tmp_path / "docs/features/plugins.md"
    for path in (rfc, page):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(BARE)

    walked = _acp_migrate("fix", ".", cwd=tmp_path)
    named = _acp_migrate("fix", "--force-exclude", str(rfc.relative_to(tmp_path)), cwd=tmp_path)

    assert walked.returncode == 0, walked.stdout + walked.stderr
    assert "available_commands_update" in page.read_text() and "slash_commands" not in page.read_text()
    assert rfc.read_text() == BARE
    assert named.returncode == 0 and rfc.read_text() == BARE
    # Named without --force-exclude, a file counts: the exclusion is what keeps it.
    assert _acp_migrate("check", str(rfc.relative_to(tmp_path)), cwd=tmp_path).returncode == 1


@pytest.mark.parametrize(
    "path", ["docs/rfcs/draft/RFC-0032.md", "doc/adr/0007-commands.rst", "CHANGELOG.md", "docs/History.md"]
)
def test_historical_texts_are_not_read(path: str) -> None:
    # What was true when they were written stays: RFCs, decision records, changelogs.
    analysis = analyze_source(BARE.encode(), path=path)
    assert analysis.findings == [] and analysis.fixed_source is None
    assert analyze_source(BARE.encode(), path="docs/features/plugins.md").findings


def test_a_suppressed_finding_keeps_its_text_and_the_others_are_fixed() -> None:
    lead = "Plugins appear as AvailableCommand in AgentCapabilities: <!-- acp-migrate: ignore -->\n"
    page = "- AvailableCommand[] in capabilities\n\n" + BARE.replace(BARE.split("\n")[0] + "\n", lead)

    analysis = analyze_source(page.encode(), path="docs/page.md")

    fixed = analysis.fixed_source.decode()
    assert fixed.startswith("- AvailableCommand[] in each session's `available_commands_update`\n")
    assert lead in fixed  # the sentence, silenced, stays
    assert '"sessionUpdate": "available_commands_update"' in fixed  # its block is another finding
    assert [f.line for f in analysis.findings] == [1, 6]


def test_check_reports_what_fix_would_rewrite_without_writing() -> None:
    analysis = analyze_source(NESTED.encode(), path="README.md", fix=False)

    assert analysis.fixed_source is None
    assert [(f.line, f.column, f.fixable) for f in analysis.findings] == [(2, 45, True)]
    assert analysis.remaining == []


def test_line_endings_and_the_byte_order_mark_are_kept() -> None:
    source = b"\xef\xbb\xbf" + BARE.replace("\n", "\r\n").encode()

    fixed = analyze_source(source, path="docs/page.md").fixed_source

    assert fixed.startswith(b"\xef\xbb\xbfPlugins appear as AvailableCommand in each session's")
    assert b"\n" not in fixed.replace(b"\r\n", b"")
    assert b'      "availableCommands": [{"name": "deploy"}]\r\n' in fixed
    assert analyze_source(fixed, path="docs/page.md").findings == []


def test_an_indented_block_keeps_its_indentation_in_a_list_item() -> None:
    page = "1. The result:\n\n   ```json\n   " + NESTED.split("\n")[1] + "\n   ```\n\n2. Next.\n"

    fixed = analyze_source(page.encode(), path="docs/page.md").fixed_source.decode()

    assert '   {"agentCapabilities": {"loadSession": true}}\n   ```\n\n   Once a session is set up' in fixed
    assert '\n   ```json\n   {"jsonrpc": "2.0", "method": "session/update"' in fixed
    assert fixed.endswith("\n   ```\n\n2. Next.\n")


def test_a_page_without_the_key_is_not_read() -> None:
    # The byte prefilter: prose alone is not a candidate (a limit the rule's doc states).
    assert analyze_source(b"- AvailableCommand[] in capabilities\n", path="docs/page.md").findings == []
