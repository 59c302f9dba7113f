"""Modern syntax, and syntax errors, whatever Python runs the tool (engine/analysis/codemod.py).

CPython's parser screens every candidate (`parse_for_screening`). When its grammar is
older than the file's (PEP 695 before 3.12, PEP 758's `except A, B:` before 3.14),
LibCST still parses the file: nothing is hollowed, and the tokens bound how deep it
nests. When both reject a file, the error is CPython's (line, 1-based column, message),
unless CPython stopped at syntax newer than its grammar: then it is LibCST's.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from acp_migrate.engine.analysis import codemod
from acp_migrate.engine.analysis import hollow as hollow_module
from acp_migrate.engine.analysis.codemod import _token_depth, analyze_source, parse_for_screening
from acp_migrate.findings import SourceError

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
# fast-agent's acp/slash_commands.py shape: PEP 695 aliases, generics, match, a long chain.
CLEAN = (GOLDEN / "neg-pep695-clean" / "input" / "slash_commands.py").read_bytes()
LEGACY = (GOLDEN / "modern-syntax-pep695-fixed" / "input" / "agent.py").read_bytes()
FIXED = (GOLDEN / "modern-syntax-pep695-fixed" / "expected" / "agent.py").read_bytes()
MATCH = (GOLDEN / "neg-match-statement" / "input" / "updates.py").read_bytes()
CLI = Path(sys.executable).parent / "acp-migrate"

CPYTHON_READS_PEP695 = sys.version_info >= (3, 12)
# PEP 758 (Python 3.14): LibCST reads it, CPython before 3.14 does not, on any Python here.
NEWER = "try:\n    pass\nexcept KeyError, ValueError:\n    pass\n"
cpython_older_than_pep758 = pytest.mark.skipif(sys.version_info >= (3, 14), reason="this CPython reads PEP 758")


def outcome(source: bytes, *, fix: bool):
    try:
        analysis = analyze_source(source, path="agent.py", fix=fix)
    except SourceError as error:
        return "error", error.reason
    return analysis.findings, analysis.remaining, analysis.fixed_source


def reason(source: bytes) -> str:
    """The one reason check and fix both give for a file they cannot analyse."""
    check, fix = outcome(source, fix=False), outcome(source, fix=True)
    assert check[0] == "error" and check == fix, (check, fix)
    return check[1]


def cpython_error(text: str) -> str:
    """CPython's own error for `text`, as reported (columns in characters)."""
    with pytest.raises(SyntaxError) as raised:
        compile(text, "<test>", "exec", dont_inherit=True, flags=ast.PyCF_ONLY_AST)
    error = raised.value
    return f"syntax error at line {error.lineno}, column {error.offset}: {error.msg}"


# -- valid modern code is analysed -------------------------------------------------------------


def test_cpython_screens_pep695_from_python_3_12_only() -> None:
    tree, error = parse_for_screening(CLEAN)
    if CPYTHON_READS_PEP695:
        assert isinstance(tree, ast.Module) and error is None
    else:
        assert tree is None and isinstance(error, SyntaxError)


@pytest.mark.parametrize("source", [CLEAN, MATCH, CLEAN.replace(b"\n", b"\r\n")], ids=["pep695", "match", "pep695-crlf"])
def test_a_clean_modern_file_is_analysed_and_left_alone(source: bytes) -> None:
    for fix in (False, True):
        findings, remaining, fixed = outcome(source, fix=fix)
        assert findings == [] and remaining == [] and fixed is None


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_legacy_keyword_in_a_pep695_file_is_fixed(newline: str) -> None:
    source, expected = (text.replace(b"\n", newline.encode()) for text in (LEGACY, FIXED))
    check_findings, _, _ = outcome(source, fix=False)
    fix_findings, remaining, fixed = outcome(source, fix=True)
    assert [(f.line, f.code) for f in check_findings] == [(44, "ACP001")]
    assert check_findings == fix_findings and remaining == []
    assert fixed == expected
    assert outcome(fixed, fix=True) == ([], [], None)  # idempotent


def test_check_hollows_what_cpython_can_read_and_parses_the_rest_whole(monkeypatch) -> None:
    calls = []
    real = hollow_module.hollow_out
    monkeypatch.setattr(hollow_module, "hollow_out", lambda *args: calls.append(1) or real(*args))

    for source in (CLEAN, LEGACY):
        assert outcome(source, fix=False)[0] == outcome(source, fix=True)[0]
    # Without CPython's tree there is nothing to hollow with: LibCST reads the whole file.
    assert len(calls) == (2 if CPYTHON_READS_PEP695 else 0)
    if CPYTHON_READS_PEP695:
        assert real(CLEAN, ast.parse(CLEAN)) is not None

    calls.clear()
    # (the screen clears this negative case before any parse: here the parse is tested)
    monkeypatch.setattr(codemod, "may_report", lambda source, sdk=None: True)
    assert outcome(MATCH, fix=False)[0] == []  # `match` is read by every supported CPython
    assert len(calls) == 1


def test_the_cli_exits_0_or_1_on_pep695_files(tmp_path: Path) -> None:
    (tmp_path / "slash_commands.py").write_bytes(CLEAN)
    (tmp_path / "agent.py").write_bytes(LEGACY)

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(CLI), *args], check=False, cwd=tmp_path, capture_output=True, text=True, timeout=120)

    clean = run("check", "slash_commands.py")
    assert (clean.returncode, clean.stderr) == (0, "")
    legacy = run("check", "agent.py")
    assert legacy.returncode == 1 and legacy.stderr == ""
    assert legacy.stdout.startswith("agent.py:44:13: ACP001 ")

    fixed = run("fix", ".")
    assert fixed.returncode == 0 and fixed.stderr == "", fixed
    assert (tmp_path / "agent.py").read_bytes() == FIXED
    assert (tmp_path / "slash_commands.py").read_bytes() == CLEAN


def test_long_chains_and_literals_in_a_modern_file_are_not_taken_for_deep_nesting() -> None:
    # What the issue hit: a long call chain (and long literals) in a file CPython 3.11
    # cannot read were counted as one deep expression.
    chain = "".join(f'    .line("label {i}", value_{i}, f"{{value_{i}:>{i}}}")\n' for i in range(100))
    entries = "".join(f'    AvailableCommand(name="c{i}", description="d {i}", input=None),\n' for i in range(500))
    source = (
        "# slash_commands\ntype Lines = list[str]\n\n"
        f"report = (\n    Report()\n{chain})\n"
        f"COMMANDS = [\n{entries}]\n"
        "TEXT = (\n" + '    "a long text "\n' * 150 + ")\n"
    ).encode()
    assert outcome(source, fix=False) == outcome(source, fix=True) == ([], [], None)
    brackets, levels, stop = _token_depth(source)
    assert brackets <= 3 and levels < 300 and stop is None  # 2 a link: Call(Attribute(...))


# -- a file too deep for LibCST is refused without CPython's tree ------------------------------

DEEP = {
    "not": lambda n: "x = " + "not " * n + "slash_commands\n",
    "minus": lambda n: "x = " + "-" * n + "slash_commands\n",
    "plus_chain": lambda n: "x = " + "a + " * n + "slash_commands\n",
    "and_chain": lambda n: "x = " + "a and " * n + "slash_commands\n",
    "ternary_chain": lambda n: "x = " + "a if b else " * n + "slash_commands\n",
    "lambdas": lambda n: "x = " + "lambda: " * n + "slash_commands\n",
    "attribute_chain": lambda n: "x = a" + ".b" * n + ".slash_commands\n",
    "call_chain": lambda n: "x = f" + "()" * n + ".slash_commands\n",
    "subscript_chain": lambda n: "x = a" + "[0]" * n + ".slash_commands\n",
    "string_concatenation": lambda n: "x = " + '"a" ' * n + '"slash_commands"\n',
    "elif_chain": lambda n: "if a:\n    pass\n" + "elif b:\n    pass\n" * n + "x = slash_commands\n",
    "brackets": lambda n: "x = " + "[" * n + "slash_commands" + "]" * n + "\n",
    "walrus": lambda n: "x = " + "(y := " * n + "slash_commands" + ")" * n + "\n",
    "comprehensions": lambda n: "x = [slash_commands " + "for a in b " * n + "]\n",
    "chain_then_syntax_error": lambda n: "x = a" + ".b" * n + ".slash_commands +\n",
}


@cpython_older_than_pep758
@pytest.mark.parametrize("form", sorted(DEEP))
def test_deep_nesting_in_a_file_cpython_cannot_read_is_refused(form: str) -> None:
    deep = (NEWER + DEEP[form](1000)).encode()
    # (From 3.12 the tokenizer itself stops at 200 brackets: "too many nested parentheses".)
    assert "nested" in reason(deep)
    shallow = (NEWER + DEEP[form](60)).encode()
    if form == "chain_then_syntax_error":
        assert reason(shallow).startswith("syntax error at line ")
    else:
        assert outcome(shallow, fix=False)[0] == []


@cpython_older_than_pep758
def test_indentation_counts_towards_the_depth() -> None:
    chain = DEEP["attribute_chain"](150)
    assert outcome((NEWER + chain).encode(), fix=False)[0] == []
    nested = "".join("    " * i + "if a:\n" for i in range(90)) + "    " * 90 + chain
    assert "too deeply nested" in reason((NEWER + nested).encode())


@cpython_older_than_pep758
def test_a_very_deep_modern_file_alone_does_not_crash_the_cli(tmp_path: Path) -> None:
    # One file: analysed in the CLI's own process; LibCST would crash it at this depth.
    (tmp_path / "deep.py").write_text(NEWER + DEEP["not"](20_000) + DEEP["brackets"](5_000))
    result = subprocess.run(
        [str(CLI), "check", "deep.py"], check=False, cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 2, result
    assert result.stderr.startswith("deep.py: error: ") and "nested" in result.stderr


def test_the_token_depth_counts_links_not_siblings() -> None:
    def levels(text: str) -> int:
        return _token_depth(text.encode())[1]

    assert levels("x = f(a, b, c, d, e)\n") == levels("x = f(a)\n")
    assert levels("x = [" + "1, " * 1000 + "]\n") == levels("x = [1]\n")
    assert levels("x = a.b.c.d\n") == levels("x = a.b\n") + 2
    assert levels("x = f(a)(b)(c)\n") == levels("x = f(a)\n") + 2
    assert levels('x = "a" "b" "c"\n') == levels('x = "a"\n') + 2
    elifs = "if a:\n    pass\nelif b:\n    pass\nelif c:\n    x = 1\n"
    assert levels(elifs) == levels("if a:\n    x = 1\n") + 2
    assert _token_depth(b"x = (\n")[2] is None  # brackets open at the end: every token seen
    stop = _token_depth(b"if a:\n        b\n    c\n")[2]  # a dedent to no outer level
    assert stop == (3, "unindent does not match any outer indentation level")


# -- syntax errors: CPython's line, column and message when it can judge -------------------------


def test_a_broken_def_on_line_2_is_reported_at_line_2() -> None:
    source = b"import os\ndef broken(:\n    return slash_commands\n"
    assert reason(source) == "syntax error at line 2, column 12: invalid syntax"


@pytest.mark.parametrize(
    "text,line",
    [
        ("x = 1\nslash_commands = (\ny = 2\nz = 3\n", 2),  # '(' was never closed
        ("slash_commands = (\n", 1),
        ("x = 1\nif x\n    y = slash_commands\n", 2),  # expected ':'
        ("x = 1\nf() = slash_commands\n", 2),  # cannot assign to function call
        ("def f():\nreturn slash_commands\n", 2),  # expected an indented block
        ("x = 1\ny = 'abc\nz = slash_commands\n", 2),  # unterminated string literal
        ("if slash_commands:\n\ty = 1\n        z = 2\n", 3),  # inconsistent tabs and spaces
        ("x = 'é'\ny = 'éé' slash_commands\n", 2),  # the column counts characters
    ],
)
def test_a_real_syntax_error_is_reported_as_cpython_reports_it(text: str, line: int) -> None:
    expected = cpython_error(text)
    assert expected.startswith(f"syntax error at line {line}, column ")
    assert reason(text.encode()) == expected


def test_a_mistake_after_pep695_syntax_is_reported_at_its_own_line() -> None:
    # Before 3.12 CPython stops at `type` (valid modern code): LibCST's error, on line 3.
    source = "type Alias = int\nslash_commands = 1\nf() = 2\n"
    found = reason(source.encode())
    assert found.startswith("syntax error at line 3, column ")
    if CPYTHON_READS_PEP695:
        assert found == cpython_error(source)
    in_a_class = b"class C:\n    def m[T](self, x: T) -> T:\n        return x\n\n    def n(self):\n        f() = slash_commands\n"
    assert reason(in_a_class).startswith("syntax error at line 6, column ")
    crlf = source.replace("\n", "\r\n").encode()
    assert reason(crlf).startswith("syntax error at line 3, column ")
    lone_cr = source.replace("\n", "\r").encode()
    assert reason(lone_cr).startswith("syntax error at line 3, column ")


def test_a_mistake_before_pep695_syntax_is_cpythons_error() -> None:
    source = "slash_commands = 1\nf() = 2\ntype Alias = int\n"
    assert reason(source.encode()) == cpython_error(source)


def test_a_lexical_mistake_after_pep695_syntax_is_cpythons_error() -> None:
    # CPython reports tokenizer errors anywhere in the file first: those hold in any grammar.
    source = "type Alias = int\nslash_commands = 'abc\n"
    assert reason(source.encode()) == cpython_error(source)
    assert "unterminated string literal" in reason(source.encode())


def test_a_bad_dedent_after_pep695_syntax_is_reported_at_its_line() -> None:
    # Python 3.11 reports `type` (line 1); its tokenizer stops at the dedent, LibCST's too.
    source = b"type Alias = int\nslash_commands = 1\nif slash_commands:\n        x = 1\n    y = 2\n"
    found = reason(source)
    assert found.startswith("syntax error at line 5") and "unindent does not match" in found


@cpython_older_than_pep758
def test_a_mistake_after_syntax_newer_than_cpython_is_libcsts_error() -> None:
    found = reason((NEWER + "slash_commands = [1 2]\n").encode())
    assert found.startswith("syntax error at line 5, column ") and "expected one of" in found
    # The same mistake before the newer syntax: CPython judges it.
    source = "slash_commands = [1 2]\n" + NEWER
    assert reason(source.encode()) == cpython_error(source)


def test_libcsts_position_comes_from_its_message(monkeypatch) -> None:
    import libcst as cst

    # A file CPython reads but LibCST rejects (a LibCST gap): LibCST's error, 1-based.
    def parse_module(source: bytes):
        raise cst.ParserSyntaxError("parser error: error at 3:4: expected NAME", lines=[], raw_line=4, raw_column=0)

    monkeypatch.setattr(cst, "parse_module", parse_module)
    source = b"x = 1\ny = 2\nslash_commands = 3\n"
    assert reason(source) == "syntax error at line 3, column 5: expected NAME"

    def tokenizer_error(source: bytes):
        raise cst.ParserSyntaxError("tokenizer error: unterminated string literal", lines=[], raw_line=1, raw_column=0)

    monkeypatch.setattr(cst, "parse_module", tokenizer_error)
    assert reason(source) == "syntax error: unterminated string literal"  # LibCST gives no position
