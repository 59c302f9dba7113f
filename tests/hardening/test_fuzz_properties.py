"""Property tests of `fix` (`analyze_source`) on generated and mutated programs.

For any source: `fix` raises nothing but SourceError; when the input parses (CPython),
so does the output; a second `fix` changes nothing; a source without a legacy
token is never changed; and `check` (which hollows out what cannot matter) reports
exactly what the whole-file analysis reports. Programs come from hypothesmith (CPython's grammar, and LibCST
nodes) with legacy tokens put in, and from random edits of the golden inputs.
Bounded: a fixed seed and a few dozen examples each, so CI runs the same cases in seconds.
"""

from __future__ import annotations

import ast
import re
from unittest import mock

import pytest
from hardening_support import LEGACY_SNIPPETS, golden_inputs, parses
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.programs import GRAMMAR, NODES

from acp_migrate.engine.analysis.codemod import analyze_source
from acp_migrate.engine.analysis.prefilter import TOKENS, may_contain_legacy
from acp_migrate.findings import SourceError

pytestmark = pytest.mark.slow  # generated programs by the hundred

BOUNDED = settings(
    max_examples=50,
    deadline=None,
    derandomize=True,  # the same examples on every run: CI must not flake
    database=None,
    suppress_health_check=list(HealthCheck),
)

_IDENTIFIER = re.compile(r"\b(?!(?:False|None|True|and|as|assert|async|await|break|class|continue|def|del|elif|else"
                         r"|except|finally|for|from|global|if|import|in|is|lambda|nonlocal|not|or|pass|raise"
                         r"|return|try|while|with|yield|match|case|type|_)\b)[A-Za-z_]\w*\b")


def _reported(source: bytes, *, fix: bool):
    try:
        analysis = analyze_source(source, path="fuzz.py", fix=fix)
    except SourceError as error:
        return "error", error.reason
    return analysis.findings, analysis.remaining


def _fixed(source: bytes):
    try:
        analysis = analyze_source(source, path="fuzz.py", fix=True)
    except SourceError as error:
        return "error", error.reason
    return analysis.fixed_source, analysis.findings, analysis.remaining


def check_fix_properties(source: bytes) -> None:
    """The properties every source must have; raises AssertionError, or whatever fix leaks."""
    assert _reported(source, fix=False) == _reported(source, fix=True), "check and fix report differently"
    skipping = _fixed(source)
    with mock.patch("acp_migrate.engine.analysis.hollow.irrelevant_definitions", lambda source, tree, holds_token: []):
        assert skipping == _fixed(source), "fix skipping unrelated definitions writes something else"
    try:
        first = analyze_source(source, path="fuzz.py", fix=True)
    except SourceError:
        return  # reported as an error per file: allowed
    fixed = first.fixed_source
    if not may_contain_legacy(source):
        assert fixed is None, "a source without legacy tokens was changed"
        return
    if fixed is None:
        return
    assert fixed != source
    if parses(source):
        assert parses(fixed), f"fix broke a valid program:\n{fixed.decode(errors='replace')}"
    try:
        second = analyze_source(fixed, path="fuzz.py", fix=True)
    except SourceError as error:
        raise AssertionError(f"the fixed source cannot be analysed again: {error.reason}") from None
    assert second.fixed_source is None, (
        "a second fix changed the output again:\n--- first\n"
        + fixed.decode(errors="replace")
        + "\n--- second\n"
        + second.fixed_source.decode(errors="replace")
    )


def with_legacy(program: str, data: st.DataObject) -> bytes:
    """Put legacy tokens into a program: as identifiers, appended snippets, or a comment."""
    how = data.draw(st.sampled_from(["identifier", "snippet", "comment", "string"]))
    if how == "identifier":
        names = _IDENTIFIER.findall(program)
        if names:
            name = data.draw(st.sampled_from(sorted(set(names))))
            program = re.sub(rf"\b{re.escape(name)}\b", data.draw(st.sampled_from(["slash_commands", "slashCommands"])),
                             program)
        else:
            how = "snippet"
    if how == "snippet":
        program = program.rstrip("\\\n") + "\n\n" + data.draw(st.sampled_from(LEGACY_SNIPPETS))
    elif how == "comment":
        program = "# slash_commands\n" + program
    elif how == "string":
        program = program + '\n_doc = "slashCommands: acp-migrate: TODO"\n'
    return program.encode("utf-8", "surrogatepass")


@BOUNDED
@given(GRAMMAR, st.data())
def test_programs_from_the_grammar(program: str, data: st.DataObject) -> None:
    check_fix_properties(with_legacy(program, data))


@BOUNDED
@given(NODES, st.data())
def test_programs_from_libcst_nodes(program: str, data: st.DataObject) -> None:
    check_fix_properties(with_legacy(program, data))


@settings(BOUNDED, max_examples=30)
@given(GRAMMAR)
def test_programs_without_legacy_tokens_are_never_changed(program: str) -> None:
    source = program.encode("utf-8", "surrogatepass")
    for token in TOKENS:
        source = source.replace(token, b"x")
    try:
        analysis = analyze_source(source, path="fuzz.py", fix=True)
    except SourceError:
        return
    assert analysis.fixed_source is None and analysis.findings == []


# ---------------------------------------------------------------- golden mutations

GOLDEN = [path.read_bytes() for path in golden_inputs()]
FRAGMENTS = [
    b"slash_commands", b"slashCommands", b"slash_commands=", b'"slashCommands": ', b"acp-migrate: TODO",
    b"(", b")", b"[", b"]", b"{", b"}", b",", b":", b"=", b".", b"\n", b"\r\n", b"\\\n", b"    ", b"\t",
    b"#", b"'", b'"', b'"""', b"\xef\xbb\xbf", b"\x0c", b"pass\n", b"lambda: ", b"not ", b"await ", b"*", b"**",
    b"del slash_commands\n", b"global slash_commands\n", b"import slash_commands\n", b"x.slash_commands",
    b"AgentCapabilities(slash_commands=[])", b"InitializeResponse.create(slash_commands=None)",
]


@st.composite
def mutated_golden(draw: st.DrawFn) -> bytes:
    source = draw(st.sampled_from(GOLDEN))
    for _ in range(draw(st.integers(1, 4))):
        lines = source.splitlines(keepends=True) or [b""]
        kind = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "cut", "dedent", "endings"]))
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines) - 1))
        if kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "dedent":
            lines[i] = lines[i].lstrip(b" \t")
        elif kind == "endings":
            lines[i] = lines[i].rstrip(b"\r\n") + draw(st.sampled_from([b"\r\n", b"\n", b"\r", b""]))
        source = b"".join(lines)
        if kind == "insert":
            at = draw(st.integers(0, len(source)))
            source = source[:at] + draw(st.sampled_from(FRAGMENTS)) + source[at:]
        elif kind == "cut":
            at = draw(st.integers(0, len(source)))
            source = source[:at] + source[at + draw(st.integers(1, 40)) :]
    return source


@settings(BOUNDED, max_examples=80)
@given(mutated_golden())
def test_mutated_golden_inputs(source: bytes) -> None:
    check_fix_properties(source)


@pytest.mark.parametrize("index", range(len(GOLDEN)))
def test_every_golden_input_has_the_properties(index: int) -> None:
    check_fix_properties(GOLDEN[index])


# Top-level imports, used or not, bound by the rules or not, at top-level statement
# starts, behind a token-less definition: what check's hollowing prunes (engine/analysis/hollow.py).
IMPORTS = [
    b"import os\n", b"from acp.schema import AgentCapabilities as Caps\n", b"from acp import schema\n",
    b"import acp.schema\n", b"from acp.schema import InitializeResponse\n", b"import json; import sys\n",
    b"from x import *\n", b"from acp_migrate.runtime import CommandAdvertiser\n",
]
PAD = b"def _unrelated(a,\n              b=1):\n    import os.path as unused\n    return a\n\n\n"


@st.composite
def golden_with_imports(draw: st.DrawFn) -> bytes:
    source = draw(mutated_golden())
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return source
    future = max((s.lineno for s in tree.body if isinstance(s, ast.ImportFrom) and s.module == "__future__"), default=0)
    starts = sorted({s.lineno for s in tree.body if s.lineno > future and not getattr(s, "decorator_list", None)})
    lines = source.splitlines(keepends=True)
    for at in sorted(draw(st.lists(st.sampled_from(starts), max_size=4)) if starts else [], reverse=True):
        lines.insert(at - 1, draw(st.sampled_from([*IMPORTS, PAD])))
    return b"".join(lines) + PAD


@settings(BOUNDED, max_examples=80)
@given(golden_with_imports())
def test_golden_inputs_with_imports_and_unrelated_definitions(source: bytes) -> None:
    check_fix_properties(source)
