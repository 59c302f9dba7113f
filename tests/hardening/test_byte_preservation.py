"""`fix` changes only the lines of the legacy code: everything before and after it comes
back byte for byte, whatever the line endings, BOM, tabs, form feeds or final newline.

The legacy block is a list `fix` cannot move (not an agent's `initialize`): the code
stays and one TODO line is added above it, in the file's own line ending and indentation."""

from __future__ import annotations

from pathlib import Path

import pytest
from hardening_support import parses, run_cli

BOM = b"\xef\xbb\xbf"
TODO = b"# acp-migrate: TODO: advertise `commands` per session (acp-migrate rules ACP005)"


def block(indent: bytes = b"    ", eol: bytes = b"\n") -> bytes:
    return (
        b"def initialize_result(commands):" + eol
        + indent + b"if commands:" + eol
        + indent * 2
        + b'return {"protocolVersion": 1, "agentCapabilities": {"loadSession": True, "slashCommands": commands}}'
        + eol + indent + b"return {}" + eol
    )


def header(eol: bytes = b"\n") -> bytes:
    return b"import os" + eol + eol + b"# a comment with a tab:\there" + eol + eol + eol


def footer(eol: bytes = b"\n", final: bytes | None = None) -> bytes:
    final = eol if final is None else final
    return eol + eol + b"SEP = os.sep" + eol + b"PATH = os.pathsep" + final


CASES = {
    "crlf": (header(b"\r\n"), block(eol=b"\r\n"), footer(b"\r\n")),
    "mixed_endings": (
        b"import os\r\n\n# mixed\r\n\n\r\n",
        block(eol=b"\r\n"),
        b"\n\r\nSEP = os.sep\r\nPATH = os.pathsep\n",
    ),
    "bom": (BOM + header(), block(), footer()),
    "bom_crlf": (BOM + header(b"\r\n"), block(eol=b"\r\n"), footer(b"\r\n")),
    "tabs": (header() + b"TABLE = {\n\t'a':\t1,\n}\n\n\n", block(indent=b"\t"), footer()),
    "form_feeds": (header() + b"\x0c\n\n", block(), b"\n\x0c\n" + footer()),
    "no_final_newline": (header(), block(), footer(final=b"")),
    "crlf_no_final_newline": (header(b"\r\n"), block(eol=b"\r\n"), footer(b"\r\n", final=b"")),
    "trailing_whitespace_and_continuations": (
        b"import os   \n\nLONG = 1 + \\\n    2\t \n\n\n",
        block(),
        b"\n\nSEP = os.sep  \t\n",
    ),
    "latin1_cookie": (
        b"# -*- coding: latin-1 -*-\nimport os\n\n# caf\xe9 cr\xe8me\n\n\n",
        block(),
        b"\n\nNAME = 'na\xefve'\nSEP = os.sep\n",
    ),
}


@pytest.fixture(scope="module")
def fixed_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # One run over every case: more than a few files, so they are fixed by pool workers.
    tree = tmp_path_factory.mktemp("bytes")
    for name, parts in CASES.items():
        (tree / f"{name}.py").write_bytes(b"".join(parts))
    (tree / "last_line.py").write_bytes(b"caps = AgentCapabilities(load_session=True, slash_commands=[])")
    (tree / "last_line_crlf.py").write_bytes(b"import os\r\n\r\ncaps = AgentCapabilities(slash_commands=None)")
    result = run_cli("fix", ".", cwd=tree)
    assert result.returncode == 1 and result.stderr == "", result  # fixed, TODOs left
    return tree


@pytest.mark.parametrize("name", sorted(CASES))
def test_only_the_legacy_lines_change(fixed_tree: Path, name: str) -> None:
    before, legacy, after = CASES[name]
    fixed = (fixed_tree / f"{name}.py").read_bytes()
    assert fixed.startswith(before), fixed
    assert fixed.endswith(after), fixed
    middle = fixed[len(before) : len(fixed) - len(after)]
    assert parses(fixed)
    # Every line of the block stays as it was; one TODO line comes before the legacy one.
    lines = legacy.splitlines(keepends=True)
    head, tail = lines[0] + lines[1], b"".join(lines[2:])
    assert middle.startswith(head) and middle.endswith(tail), middle
    added = middle[len(head) : len(middle) - len(tail)]
    indent = lines[2][: len(lines[2]) - len(lines[2].lstrip())]
    eol = b"\r\n" if lines[2].endswith(b"\r\n") else b"\n"
    assert added == indent + TODO + eol, added


@pytest.mark.parametrize("name", ["crlf", "bom_crlf", "crlf_no_final_newline"])
def test_new_lines_follow_the_crlf_convention(fixed_tree: Path, name: str) -> None:
    fixed = (fixed_tree / f"{name}.py").read_bytes()
    assert fixed.count(b"\n") == fixed.count(b"\r\n")


def test_new_lines_follow_tab_indentation(fixed_tree: Path) -> None:
    fixed = (fixed_tree / "tabs.py").read_bytes()
    body = fixed[fixed.index(b"def initialize_result") :]
    assert all(not line.startswith(b" ") for line in body.splitlines())


def test_the_bom_stays_first_and_single(fixed_tree: Path) -> None:
    for name in ("bom", "bom_crlf"):
        fixed = (fixed_tree / f"{name}.py").read_bytes()
        assert fixed.startswith(BOM) and fixed.count(BOM) == 1


def test_a_last_line_without_newline_stays_without(fixed_tree: Path) -> None:
    fixed = (fixed_tree / "last_line.py").read_bytes()
    assert fixed.endswith(b"caps = AgentCapabilities(load_session=True)")
    fixed_crlf = (fixed_tree / "last_line_crlf.py").read_bytes()
    assert fixed_crlf.startswith(b"import os\r\n\r\n") and fixed_crlf.endswith(b"caps = AgentCapabilities()")
    assert fixed_crlf.count(b"\n") == fixed_crlf.count(b"\r\n")


def test_a_second_fix_changes_nothing(fixed_tree: Path) -> None:
    before = {path.name: path.read_bytes() for path in fixed_tree.iterdir()}
    result = run_cli("fix", ".", cwd=fixed_tree)
    assert result.returncode == 1 and "Fixed " not in result.stdout
    assert {path.name: path.read_bytes() for path in fixed_tree.iterdir()} == before
