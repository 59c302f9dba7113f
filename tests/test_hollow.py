"""`check` hollows out top-level definitions that cannot matter (engine/hollow.py):
kept lines stay byte for byte where they were, and what `check` reports is exactly what
the whole-file analysis (`fix`, `diff`) reports."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from acp_migrate.engine import hollow as hollow_module
from acp_migrate.engine.codemod import analyze_source
from acp_migrate.engine.hollow import hollow_out
from acp_migrate.findings import SourceError

LEGACY = (
    "from acp.schema import AgentCapabilities\n"
    "\n"
    "\n"
    "def capabilities(commands):\n"
    "    return AgentCapabilities(load_session=True, slash_commands=commands)\n"
)

FILLER = (
    "@decorate(\n"
    "    'x',\n"
    ")\n"
    "def filler_{n}(a,\n"
    "              b=1):\n"
    "    import os.path as unused_{n}\n"
    "    return helper(a)\n"
    "\n"
    "\n"
    "class Filler{n}(Base):\n"
    "    @property\n"
    "    def value(self):\n"
    "        return 1\n"
    "\n"
    "    def other(self):  # one line each\n"
    "        pass\n"
    "\n"
    "\n"
)


def hollow(source: str) -> str | None:
    data = source.encode()
    result = hollow_out(data, ast.parse(data))
    return None if result is None else result.decode()


def test_bodies_without_tokens_become_one_ellipsis_and_blank_lines() -> None:
    source = FILLER.format(n=1) + LEGACY
    result = hollow(source)

    assert result is not None
    before, after = source.splitlines(keepends=True), result.splitlines(keepends=True)
    assert len(before) == len(after)
    changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    # The function's body (lines 6-7) and the class's (11-16, 14 already blank); headers
    # and decorators stay.
    assert [i + 1 for i in changed] == [6, 7, 11, 12, 13, 15, 16]
    assert after[5] == "    ...\n" and after[10] == "    ...\n"
    assert all(after[i] == "\n" for i in changed if after[i] != "    ...\n")
    assert result.endswith(LEGACY)
    ast.parse(result)


def test_line_endings_are_kept() -> None:
    source = (FILLER.format(n=1) + LEGACY).replace("\n", "\r\n")
    result = hollow(source)

    assert result is not None and "\n" not in result.replace("\r\n", "")
    assert len(result.splitlines()) == len(source.splitlines())


@pytest.mark.parametrize(
    "definition",
    [
        "def one_line(a): return a\n",
        "def signature_ends_with_the_body(\n    a): return a\n",
        "class Uses:\n    slash_commands = []\n",
        "def mentions():\n    return 'slashCommands'\n",
        "def todo():\n    pass  # acp-migrate: TODO: advertise\n",
    ],
)
def test_definitions_that_stay_whole(definition: str) -> None:
    assert hollow(definition + "\n\nx = 1\n") is None


def test_a_definition_importing_a_name_the_kept_code_uses_stays_whole() -> None:
    importer = "def setup():\n    global AgentCapabilities\n    from acp.schema import AgentCapabilities\n"
    other = "def unrelated():\n    from os import path\n    return path\n"
    result = hollow(importer + "\n\n" + other + "\n\n" + LEGACY.split("\n\n\n", 1)[1])

    assert result is not None
    assert importer in result and "from os import path" not in result


# -- check reports what the whole-file analysis reports -----------------------------------------


def outcome(source: bytes, *, fix: bool):
    try:
        analysis = analyze_source(source, path="agent.py", fix=fix)
    except SourceError as error:
        return "error", error.reason
    return analysis.findings, analysis.remaining


def assert_check_matches_whole_file(source: bytes) -> None:
    assert outcome(source, fix=False) == outcome(source, fix=True)


def padded(source: bytes) -> bytes:
    """`source` with token-less definitions before every top-level statement, to hollow."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return source
    lines = source.splitlines(keepends=True)
    starts = sorted({min([s.lineno, *(d.lineno for d in getattr(s, "decorator_list", ()))]) for s in tree.body})
    future = {s.lineno for s in tree.body if isinstance(s, ast.ImportFrom) and s.module == "__future__"}
    for number, start in enumerate(reversed(starts)):
        if start > max(future, default=0):
            lines.insert(start - 1, FILLER.format(n=number).encode())
    return b"".join(lines) + FILLER.format(n="_last").encode()


GOLDEN = Path(__file__).resolve().parent.parent / "golden"
PYTHON_GOLDEN = sorted(p for p in GOLDEN.glob("*/input/**/*") if p.is_file() and p.suffix in (".py", ".pyi"))


def test_padding_gives_check_something_to_hollow() -> None:
    hollowed = [p for p in PYTHON_GOLDEN if hollow_out(padded(p.read_bytes()), ast.parse(padded(p.read_bytes())))]
    assert len(hollowed) == len(PYTHON_GOLDEN) >= 40


@pytest.mark.parametrize("path", PYTHON_GOLDEN, ids=[f"{p.parent.parent.name}/{p.name}" for p in PYTHON_GOLDEN])
def test_check_reports_what_the_whole_file_analysis_reports(path) -> None:
    source = path.read_bytes()
    assert_check_matches_whole_file(source)
    assert_check_matches_whole_file(padded(source))
    # Findings of the padded file are the original's, moved down by the padding.
    plain = outcome(source, fix=False)
    moved = outcome(padded(source), fix=False)
    if plain[0] != "error":
        assert [(f.code, f.message) for f in plain[0]] == [(f.code, f.message) for f in moved[0]]


def test_positions_come_from_the_original_lines() -> None:
    source = (FILLER.format(n=1) * 3 + LEGACY).encode()
    (finding,) = analyze_source(source, path="agent.py", fix=False).findings
    line = source.splitlines()[finding.line - 1].decode()

    assert re.search(r"slash_commands=commands", line)
    assert line[finding.column - 1 :].startswith("slash_commands=commands")


@pytest.mark.parametrize("path", PYTHON_GOLDEN, ids=[f"{p.parent.parent.name}/{p.name}" for p in PYTHON_GOLDEN])
def test_fix_skipping_unrelated_definitions_writes_what_a_full_traversal_writes(path, monkeypatch) -> None:
    source = padded(path.read_bytes())

    def fixed():
        try:
            analysis = analyze_source(source, path=path.name, fix=True)
        except SourceError as error:
            return error.reason
        return analysis.fixed_source, analysis.findings, analysis.remaining

    skipping = fixed()
    monkeypatch.setattr(hollow_module, "irrelevant_definitions", lambda source, tree: [])
    assert skipping == fixed()


def test_fix_finds_the_libcst_statement_of_every_unrelated_definition() -> None:
    import libcst as cst

    from acp_migrate.engine.codemod import _counterparts

    for path in PYTHON_GOLDEN:
        source = padded(path.read_bytes())
        tree = ast.parse(source)
        irrelevant = hollow_module.irrelevant_definitions(source, tree)
        found = _counterparts(cst.parse_module(source), tree, irrelevant)
        assert irrelevant and len(found) == len(irrelevant), path
        assert {node.name.value for node in found} == {node.name for node in irrelevant}
