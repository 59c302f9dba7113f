"""`check` hollows out top-level definitions that cannot matter (engine/analysis/hollow.py):
kept lines stay byte for byte, each line maps back to its original line, and what
`check` reports is exactly what the whole-file analysis (`fix`, `diff`) reports."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from acp_migrate.engine.analysis import hollow as hollow_module
from acp_migrate.engine.analysis.codemod import analyze_source
from acp_migrate.engine.analysis.hollow import hollow_out
from acp_migrate.rules import NAMES_LOOKED_UP
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
    return None if result is None else result.source.decode()


def test_bodies_without_tokens_become_one_ellipsis_line() -> None:
    source = FILLER.format(n=1) + LEGACY
    result = hollow_out(source.encode(), ast.parse(source))

    assert result is not None
    before = source.splitlines(keepends=True)
    # The function's decorator (lines 1-3) goes and its body (6-7) becomes one line; the
    # class's body (11-16) too; headers and the lines between definitions stay.
    expected = [*before[3:5], "    ...\n", *before[7:10], "    ...\n", *before[16:]]
    assert result.source.decode() == "".join(expected)
    assert result.origin == [4, 5, 6, 8, 9, 10, 11, *range(17, len(before) + 2)]
    assert result.source.decode().endswith(LEGACY)
    ast.parse(result.source)


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_line_endings_are_kept(newline: str) -> None:
    source = (FILLER.format(n=1) + LEGACY).replace("\n", newline)
    result = hollow(source)

    assert result is not None
    assert result == hollow(FILLER.format(n=1) + LEGACY).replace("\n", newline)
    assert f"    ...{newline}" in result


def test_a_body_ending_the_file_keeps_its_missing_line_break() -> None:
    assert hollow("x = 1\n\ndef f():\n    return 1") == "x = 1\n\ndef f():\n    ..."


MAPPED = (
    "x = 1\n"  # before
    "\n"
    "@decorate(\n"
    "    'x')\n"
    "def documented(a,\n"
    "               b):\n"
    '    """A docstring\n'
    '    spanning lines."""\n'
    "    return a\n"
    "# between\n"
    "y = [\n"
    "    2]\n"
    "class Empty:\n"
    "    pass\n"
    "\n"
    "    # trailing comment\n"
    "def last():\n"
    "    return 3\n"
    "z = 4\n"  # after
)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_hollowed_lines_map_to_their_original_lines(newline: str) -> None:
    source = MAPPED.replace("\n", newline).encode()
    result = hollow_out(source, ast.parse(source))

    assert result is not None
    before, after = source.splitlines(keepends=True), result.source.splitlines(keepends=True)
    ellipsis = b"    ..." + newline.encode()
    assert after.count(ellipsis) == 3
    assert [result.original_line(n) for n in range(1, len(after) + 1)] == [
        1, 2,
        5, 6,  # the decorated function's signature (its decorator, lines 3-4, goes)
        7,  # its body (lines 7-9, the docstring first), one `...`
        10, 11, 12, 13,
        14,  # the class body
        15, 16, 17,  # the comment after it is not part of the body
        18,  # the last function's body
        19,
    ]  # fmt: skip
    for number, line in enumerate(after, start=1):
        if line != ellipsis:
            assert line == before[result.original_line(number) - 1]
    # Past the end (where a module ends after its last line break), shifted alike.
    assert result.original_line(len(after) + 1) == len(before) + 1
    assert result.original_line(len(after) + 3) == len(before) + 3


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


def test_what_an_agent_factory_goes_through_stays_whole() -> None:
    """The rewire proves an SDK 0.4-0.6 factory from its code (rules/shared/agent_factory.py):
    the wrappers and names `AgentSideConnection(...)` is given stay whole, others go."""
    source = (
        b"def traced(factory):\n    return factory\n\n\n"
        b"def logged(factory):\n    return factory\n\n\n"
        b"def unrelated():\n    return 1\n\n\n"
        b"MAKE = logged(lambda conn: Agent(conn))\n\n\n"
        b"def serve(writer, reader):\n    return AgentSideConnection(traced(MAKE), writer, reader)\n"
    )
    hollowed = hollow_out(source, ast.parse(source))
    assert hollowed is not None
    assert hollowed.source == source.replace(b"def unrelated():\n    return 1\n", b"def unrelated():\n    ...\n")


def test_a_run_keeps_what_the_rules_it_runs_read() -> None:
    """An SDK rule's token keeps a definition only where the run's target has that rule
    run; the factory an `AgentSideConnection(...)` is given stays whole in every run."""
    from acp_migrate.engine.analysis.hollow import holds_token_of
    from acp_migrate.sdk import Target

    handler = b"async def prompt(self, params):\n    return await self.conn.prompt(params)\n"  # ACP220's token
    source = (
        b"def traced(factory):\n    return factory\n\n\n" + handler + b"\n\n"
        b"def serve(writer, reader):\n    return AgentSideConnection(traced(make), writer, reader)\n\n\n" + LEGACY.encode()
    )
    without_target = hollow_out(source, ast.parse(source), holds_token=holds_token_of(None))
    assert without_target is not None
    assert without_target.source == source.replace(handler, b"async def prompt(self, params):\n    ...\n")
    assert hollow_out(source, ast.parse(source), holds_token=holds_token_of(Target("1.0.0", None, ""))) is None


def test_a_definition_importing_a_name_the_kept_code_uses_stays_whole() -> None:
    importer = "def setup():\n    global AgentCapabilities\n    from acp.schema import AgentCapabilities\n"
    other = "def unrelated():\n    from os import path\n    return path\n"
    result = hollow(importer + "\n\n" + other + "\n\n" + LEGACY.split("\n\n\n", 1)[1])

    assert result is not None
    assert importer in result and "from os import path" not in result


@pytest.mark.parametrize(
    "block",
    [
        "if flag:\n        import AgentCapabilities\n",
        "try:\n        pass\n    except E:\n        import AgentCapabilities\n",
        "try:\n        pass\n    finally:\n        import AgentCapabilities\n",
        "for x in y:\n        pass\n    else:\n        import AgentCapabilities\n",
        "match y:\n        case 1:\n            import AgentCapabilities\n",
        "with k:\n        from acp.schema import AgentCapabilities\n",
        "class Inner:\n        async def f(self):\n            import AgentCapabilities\n",
    ],
)
def test_an_import_nested_in_any_block_keeps_its_definition_whole(block: str) -> None:
    importer = "def setup():\n    " + block
    other = "def unrelated():\n    import os\n    return os\n"
    result = hollow(importer + "\n\n" + other + "\n\n" + LEGACY.split("\n\n\n", 1)[1])

    assert result is not None and importer in result and "return os" not in result


IMPORTS = (
    "from __future__ import annotations\n"
    "import os\n"  # used only inside a hollowed body: goes
    "import pytest\n"  # used only by a hollowed function's decorator: goes
    "from base import Base, Mixin\n"  # Base is a hollowed class's base: stays
    "from star import *\n"
    "import json; import sys\n"  # shares its line: stays
    "from acp.schema import AgentCapabilities\n"  # used by the kept code
    "import legacy_slash_commands\n"  # holds a token: stays
    "\n"
    "@pytest.mark.parametrize('x', [1, 2])\n"
    "def test_x(x):\n"
    "    return os.sep\n"
    "\n"
    "class Kept(Base):\n"
    "    value = 1\n"
    "\n"
    "def capabilities(commands):\n"
    "    return AgentCapabilities(load_session=True, slash_commands=commands)\n"
)


def test_imports_no_kept_code_uses_are_dropped() -> None:
    result = hollow(IMPORTS)

    assert result is not None
    dropped = [line for line in IMPORTS.splitlines() if line not in result.splitlines()]
    assert dropped == [
        "import os",
        "import pytest",
        "@pytest.mark.parametrize('x', [1, 2])",
        "    return os.sep",
        "    value = 1",
    ]
    assert_check_matches_whole_file(IMPORTS.encode())
    lines = IMPORTS.encode().splitlines()
    findings, _ = outcome(IMPORTS.encode(), fix=False)
    assert [lines[f.line - 1].strip() for f in findings] == [
        b"return AgentCapabilities(load_session=True, slash_commands=commands)"
    ]


def test_imports_a_fix_depends_on_stay() -> None:
    # The rewire asks whether the advertiser is imported already (NAMES_LOOKED_UP), and
    # adds its import after the last import before the first definition: both stay,
    # unused or not (found by fuzzing: check then reported a rewire fix could not do).
    source = (
        "import os\n"
        "import logging\n"  # the import section's end
        "\n"
        "def helper():\n"
        "    return os.sep\n"
        "\n"
        "from acp_migrate.runtime import CommandAdvertiser\n"
        "import json\n"
        "from acp.schema import AgentCapabilities\n"
        "\n"
        "def capabilities(commands):\n"
        "    return AgentCapabilities(load_session=True, slash_commands=commands)\n"
    )
    data = source.encode()
    result = hollow_out(data, ast.parse(data), NAMES_LOOKED_UP)

    assert result is not None
    dropped = [line for line in source.splitlines() if line not in result.source.decode().splitlines()]
    assert dropped == ["import os", "    return os.sep", "import json"]
    assert_check_matches_whole_file(data)
    assert_check_matches_whole_file(GOLDEN_AGENT_AFTER_A_DEFINITION)


def test_a_name_the_module_docstring_mentions_is_not_a_use() -> None:
    # (sqlalchemy's pysqlite.py: its 437-line docstring names the modules its methods import)
    docstring = '"""Uses sqlite3 when it can.\n\nMore prose.\n"""\n\n'
    importer = "def connect():\n    import sqlite3\n    return sqlite3.connect()\n"
    source = docstring + importer + "\n\n" + LEGACY.split("\n\n\n", 1)[1]
    result = hollow(source)

    assert result is not None and "import sqlite3" not in result and result.startswith(docstring)
    assert_check_matches_whole_file(source.encode())


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


def _cpython_reads(path: Path) -> bool:
    try:
        ast.parse(path.read_bytes())
    except SyntaxError:
        return False
    return True


# Hollowing needs CPython's tree: inputs with syntax newer than this Python (PEP 695
# before 3.12) are analysed whole (tests/test_parse_modern_syntax.py).
HOLLOWABLE_GOLDEN = [p for p in PYTHON_GOLDEN if _cpython_reads(p)]
# What fuzzing found: the advertiser's import after a definition, and no import before it.
GOLDEN_AGENT_AFTER_A_DEFINITION = (
    b"def helper():\n    return 1\n\n\nfrom acp_migrate.runtime import CommandAdvertiser\n"
    + (GOLDEN / "rewire-aliased-sdk-imports" / "input" / "agent.py").read_bytes()
)


def test_padding_gives_check_something_to_hollow() -> None:
    hollowed = [p for p in HOLLOWABLE_GOLDEN if hollow_out(padded(p.read_bytes()), ast.parse(padded(p.read_bytes())))]
    assert len(hollowed) == len(HOLLOWABLE_GOLDEN) >= 40


@pytest.mark.slow  # two analyses of every golden input
@pytest.mark.parametrize("path", PYTHON_GOLDEN, ids=[f"{p.parent.parent.name}/{p.name}" for p in PYTHON_GOLDEN])
def test_check_reports_what_the_whole_file_analysis_reports(path) -> None:
    source = path.read_bytes()
    assert_check_matches_whole_file(source)
    assert_check_matches_whole_file(padded(source))
    # Findings of the padded file are the original's, moved down by the padding; only why
    # `fix` cannot move a list may differ (definitions between the imports leave the
    # rewire no import section to add the runtime import to).
    plain = outcome(source, fix=False)
    moved = outcome(padded(source), fix=False)
    if plain[0] != "error":
        assert [(f.code, without_reason(f.message)) for f in plain[0]] == [
            (f.code, without_reason(f.message)) for f in moved[0]
        ]


def without_reason(message: str) -> str:
    """A finding's message without the reason `fix` cannot move the list, if any."""
    return message.split("; `fix` cannot move it: ")[0]


def test_positions_come_from_the_original_lines() -> None:
    source = (FILLER.format(n=1) * 3 + LEGACY).encode()
    (finding,) = analyze_source(source, path="agent.py", fix=False).findings
    line = source.splitlines()[finding.line - 1].decode()

    assert re.search(r"slash_commands=commands", line)
    assert line[finding.column - 1 :].startswith("slash_commands=commands")


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_suppressions_are_matched_on_the_original_lines(newline: str) -> None:
    source = (
        "from acp.schema import AgentCapabilities\n\n\n"
        + FILLER.format(n=1)
        + "a = AgentCapabilities(load_session=True, slash_commands=[])  # acp-migrate: ignore[ACP001]\n\n\n"
        + FILLER.format(n=2)
        + "b = AgentCapabilities(load_session=True, slash_commands=[])  # acp-migrate: ignore[ACP004]\n"
    ).replace("\n", newline).encode()
    last = len(source.splitlines())

    def reported(fix: bool):
        analysis = analyze_source(source, path="agent.py", fix=fix, report_unused_suppressions=True)
        return [(f.line, f.column, f.end_line, f.code) for f in analysis.findings]

    assert hollow_out(source, ast.parse(source)) is not None
    assert reported(fix=False) == reported(fix=True)
    assert [(line, code) for line, _, _, code in reported(fix=False)] == [(last, "ACP001"), (last, "ACP100")]


def test_a_libcst_syntax_error_is_reported_at_its_original_line(monkeypatch) -> None:
    import libcst as cst

    # Syntax CPython reads but LibCST would not: the error names the line of `marked`.
    def parse_module(source: bytes):
        lines = source.splitlines()
        number = next(n for n, line in enumerate(lines, start=1) if b"marked" in line)
        raise cst.ParserSyntaxError("unsupported", lines=[], raw_line=number, raw_column=4)

    monkeypatch.setattr(cst, "parse_module", parse_module)
    source = (FILLER.format(n=1) * 2 + LEGACY + "marked = 1\n").encode()
    line = len(source.splitlines())

    assert hollow_out(source, ast.parse(source)) is not None
    assert outcome(source, fix=False) == outcome(source, fix=True)
    assert outcome(source, fix=False) == ("error", f"syntax error at line {line}, column 5: unsupported")


@pytest.mark.slow  # two analyses of every golden input
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
    monkeypatch.setattr(hollow_module, "irrelevant_definitions", lambda source, tree, holds_token: [])
    assert skipping == fixed()


@pytest.mark.slow  # a LibCST parse of every golden input, padded
def test_fix_finds_the_libcst_statement_of_every_unrelated_definition() -> None:
    import libcst as cst

    from acp_migrate.engine.analysis.codemod import _counterparts

    for path in HOLLOWABLE_GOLDEN:
        source = padded(path.read_bytes())
        tree = ast.parse(source)
        irrelevant = hollow_module.irrelevant_definitions(source, tree)
        found = _counterparts(cst.parse_module(source), tree, irrelevant)
        assert irrelevant and len(found) == len(irrelevant), path
        assert {node.name.value for node in found} == {node.name for node in irrelevant}
