"""Bad input through the command (the installed CLI where the input could crash or hang
the interpreter): each bad file is reported on its own line with a
clear reason, the run goes on (the good file next to it is fixed), the exit code is 2,
and the bad file is left byte for byte as it was."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from hardening_support import LEGACY_SNIPPETS, run_cli, run_cli_process, snapshot

pytestmark = pytest.mark.slow  # the installed command on crafted and oversized trees

GOOD = LEGACY_SNIPPETS[0].encode()


BAD_FILES = {
    "syntax error": (b"def broken(:\n    return slash_commands\n", "syntax error at line "),
    "undecodable bytes": (b"name = '\xff\xfe\xfd'  # slash_commands\n", "cannot decode as utf-8 at line 1"),
    "unknown encoding cookie": (b"# -*- coding: klingon -*-\nslash_commands = []\n", "unknown encoding 'klingon'"),
    "cookie the bytes do not match": (
        b"# coding: ascii\nname = 'caf\xc3\xa9'  # slash_commands\n",
        "cannot decode as ascii",
    ),
    "binary file named .py": (bytes(range(256)) * 8 + b"slash_commands" + bytes(range(256)), "binary file"),
    "nested brackets": (b"slash_commands = " + b"(" * 5000 + b")" * 5000 + b"\n", "nested"),
}


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_bad_file_is_reported_and_the_run_goes_on(tmp_path: Path, kind: str) -> None:
    content, reason = BAD_FILES[kind]
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "bad.py").write_bytes(content)
    (tree / "good.py").write_bytes(GOOD)

    result = run_cli_process("fix", "tree", cwd=tmp_path)

    assert result.returncode == 2, result
    errors = result.stderr.splitlines()
    assert len(errors) == 1 and errors[0].startswith(f"{os.path.join('tree', 'bad.py')}: error: "), errors
    assert reason in errors[0]
    assert "Changed " + os.path.join("tree", "good.py") in result.stdout
    assert (tree / "bad.py").read_bytes() == content
    assert (tree / "good.py").read_bytes() != GOOD


def test_empty_file_is_fine_and_untouched(tmp_path: Path) -> None:
    (tmp_path / "empty.py").write_bytes(b"")
    (tmp_path / "good.py").write_bytes(GOOD)
    result = run_cli("fix", ".", cwd=tmp_path)
    assert result.returncode in (0, 1) and result.stderr == ""
    assert (tmp_path / "empty.py").read_bytes() == b""
    assert run_cli("check", "empty.py", cwd=tmp_path).returncode == 0


def test_ten_megabyte_generated_file_is_refused_quickly(tmp_path: Path) -> None:
    """LibCST needs minutes and ~6 GB for 10 MB: a file that large with legacy tokens is
    refused before parsing (MAX_PARSE_BYTES); without tokens it is only read."""
    chunk = (
        "\n\ndef handler_{0}(request):\n"
        '    values = [item * {0} for item in request.get("items", []) if item]\n'
        '    return {{"total": sum(values), "index": {0}}}\n'
    )
    body = "".join(chunk.format(i) for i in range(70_000)).encode()
    legacy = GOOD + body
    assert len(legacy) > 10_000_000
    (tmp_path / "generated.py").write_bytes(legacy)
    (tmp_path / "generated_clean.py").write_bytes(body)
    (tmp_path / "good.py").write_bytes(GOOD)

    # Refused before parsing, by the size alone: parsing would outlast the process's timeout.
    result = run_cli_process("fix", ".", cwd=tmp_path)

    assert result.returncode == 2
    size = f"{len(legacy) / 2**20:.1f} MiB"
    assert result.stderr.splitlines() == [
        f"generated.py: error: too large to analyse: {size} (the limit is 2 MiB); line 5 holds `slash_commands`, and"
        " it is too large to screen as well (the limits are 8 MiB and 1,200,000 tokens and lines): split the file,"
        " or exclude it (`extend-exclude`)"
    ]
    assert "Changed good.py" in result.stdout
    assert (tmp_path / "generated.py").read_bytes() == legacy
    assert (tmp_path / "generated_clean.py").read_bytes() == body


DEEP_FORMS = {
    "not": lambda n: "x = " + "not " * n + "slash_commands\n",
    "minus": lambda n: "x = " + "-" * n + "slash_commands\n",
    "invert": lambda n: "x = " + "~" * n + "slash_commands\n",
    "plus_chain": lambda n: "x = " + "a + " * n + "slash_commands\n",
    "power_chain": lambda n: "x = " + "a ** " * n + "slash_commands\n",
    "and_chain": lambda n: "x = " + "a and " * n + "slash_commands\n",
    "ternary_chain": lambda n: "x = " + "a if b else " * n + "slash_commands\n",
    "lambdas": lambda n: "x = " + "lambda: " * n + "slash_commands\n",
    "attribute_chain": lambda n: "x = a" + ".b" * n + ".slash_commands\n",
    "call_chain": lambda n: "x = f" + "()" * n + ".slash_commands\n",
    "subscript_chain": lambda n: "x = a" + "[0]" * n + ".slash_commands\n",
    # (the name beside it: a token only inside a concatenation is no legacy site, which
    # the screen clears before any parse)
    "string_concatenation": lambda n: "x = [slash_commands, " + '"a" ' * n + '"b"]\n',
    "elif_chain": lambda n: "if a:\n    pass\n" + "elif b:\n    pass\n" * n + "x = slash_commands\n",
    "nested_ifs": lambda n: "".join("    " * i + "if a:\n" for i in range(n)) + "    " * n + "x = slash_commands\n",
    "walrus": lambda n: "x = " + "(y := " * n + "slash_commands" + ")" * n + "\n",
    "fstrings": lambda n: "x = " + 'f"{' * n + "slash_commands" + '}"' * n + "\n",
    "chain_then_syntax_error": lambda n: "x = a" + ".b" * n + ".slash_commands +\n",
    "unary_then_syntax_error": lambda n: "x = " + "not " * n + "slash_commands )\n",
}


@pytest.mark.parametrize("depth", [1_000, 50_000])
def test_deep_nesting_is_refused_without_crashing(tmp_path: Path, depth: int) -> None:
    """LibCST's native parser crashes the process (SIGSEGV) or runs for minutes on a few
    thousand levels of these; analysis refuses them first, each with its reason."""
    tree = tmp_path / "tree"
    tree.mkdir()
    contents = {}
    for name, make in DEEP_FORMS.items():
        n = min(depth, 150) if name == "nested_ifs" else depth  # CPython allows 100 indents
        contents[f"{name}.py"] = make(n).encode()
        (tree / f"{name}.py").write_bytes(contents[f"{name}.py"])
    (tree / "good.py").write_bytes(GOOD)

    result = run_cli_process("fix", "tree", cwd=tmp_path, timeout=120)

    assert result.returncode == 2, result.stderr
    reasons = dict(line.split(": error: ", 1) for line in result.stderr.splitlines())
    assert sorted(reasons) == sorted(os.path.join("tree", name) for name in contents)
    for path, reason in reasons.items():
        # (a chain of 50,000 `elif` blocks is refused first for its size: parse_cost)
        assert any(word in reason for word in ("nested", "syntax error", "indentation", "too large")), (path, reason)
        assert "crashed" not in reason
    assert "Changed " + os.path.join("tree", "good.py") in result.stdout
    for name, content in contents.items():
        assert (tree / name).read_bytes() == content


@pytest.mark.parametrize("form", ["not", "attribute_chain", "elif_chain", "chain_then_syntax_error"])
def test_one_deep_file_alone_does_not_crash_the_process(tmp_path: Path, form: str) -> None:
    # One file: analysed in the CLI's own process, with no worker to absorb a crash.
    (tmp_path / "deep.py").write_bytes(DEEP_FORMS[form](20_000).encode())
    result = run_cli_process("check", "deep.py", cwd=tmp_path, timeout=60)
    assert result.returncode == 2, result
    assert result.stderr.startswith("deep.py: error: ")


def test_shallow_chains_are_still_analysed(tmp_path: Path) -> None:
    # Just under the limits: 100 indents, 200 brackets (CPython's), 300 levels (ours).
    sizes = {"nested_ifs": 50, "walrus": 150, "fstrings": 150}
    shallow = {name: make(sizes.get(name, 250)) for name, make in DEEP_FORMS.items()}
    # (Nested f-strings with the same quotes are valid only from Python 3.12.)
    source = "\n".join(text for name, text in shallow.items() if "syntax" not in name and name != "fstrings").encode()
    (tmp_path / "shallow.py").write_bytes(source)
    result = run_cli("check", "shallow.py", cwd=tmp_path)
    assert result.returncode in (0, 1) and result.stderr == ""


def _drop_root_powers() -> list[str] | None:
    """A prefix that runs a command without CAP_DAC_OVERRIDE, so root obeys file modes."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    probe = subprocess.run([setpriv, "--bounding-set=-dac_override,-dac_read_search", "true"], capture_output=True)
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search"] if probe.returncode == 0 else None


def test_unreadable_file_is_reported(tmp_path: Path) -> None:
    prefix = _drop_root_powers()
    if prefix is None:
        pytest.skip("running as root without setpriv: root reads any file")
    (tmp_path / "secret.py").write_bytes(GOOD)
    (tmp_path / "good.py").write_bytes(GOOD)
    (tmp_path / "secret.py").chmod(0)
    try:
        result = run_cli_process("fix", ".", cwd=tmp_path, timeout=60, prefix=prefix)
    finally:
        (tmp_path / "secret.py").chmod(0o644)
    assert result.returncode == 2, result
    assert result.stderr.splitlines() == ["secret.py: error: permission denied"]
    assert "Changed good.py" in result.stdout
    assert (tmp_path / "secret.py").read_bytes() == GOOD


def test_read_only_file_is_not_fixed(tmp_path: Path) -> None:
    (tmp_path / "locked.py").write_bytes(GOOD)
    (tmp_path / "good.py").write_bytes(GOOD)
    (tmp_path / "locked.py").chmod(0o444)

    result = run_cli("fix", ".", cwd=tmp_path)

    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "good.py: error: not written: fix writes all of a run's files or none, and locked.py cannot be written",
        "locked.py: error: permission denied: file is read-only",
    ]
    assert (tmp_path / "good.py").read_bytes() == GOOD  # a run is written whole or not at all
    assert (tmp_path / "locked.py").read_bytes() == GOOD
    assert stat.S_IMODE((tmp_path / "locked.py").stat().st_mode) == 0o444
    # Reading is fine: check reports it like any file.
    assert run_cli("check", "locked.py", cwd=tmp_path).returncode == 1


def test_symlink_loops(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "good.py").write_bytes(GOOD)
    (tree / "a.py").symlink_to("b.py")
    (tree / "b.py").symlink_to("a.py")
    (tree / "sub").mkdir()
    (tree / "sub" / "up").symlink_to("..")  # a folder loop

    walked = run_cli("check", "tree", cwd=tmp_path)
    assert walked.returncode == 1 and walked.stderr == ""  # links met in a walk are not followed

    explicit = run_cli("fix", os.path.join("tree", "a.py"), "tree", cwd=tmp_path)
    assert explicit.returncode == 2
    (line,) = explicit.stderr.splitlines()
    assert line == os.path.join("tree", "a.py") + ": error: symbolic link loop"
    assert "Changed " + os.path.join("tree", "good.py") in explicit.stdout
    assert os.readlink(tree / "a.py") == "b.py" and os.readlink(tree / "b.py") == "a.py"


def test_symlinks_out_of_the_tree_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "legacy.py").write_bytes(GOOD)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "good.py").write_bytes(GOOD)
    (tree / "linked.py").symlink_to(outside / "legacy.py")
    (tree / "linked_dir").symlink_to(outside, target_is_directory=True)

    result = run_cli("fix", "tree", cwd=tmp_path)

    assert result.returncode in (0, 1) and result.stderr == ""
    assert [line for line in result.stdout.splitlines() if line.startswith("Changed tree")] == [
        "Changed " + os.path.join("tree", "good.py")
    ]
    assert (outside / "legacy.py").read_bytes() == GOOD
    assert (tree / "linked.py").is_symlink() and (tree / "linked_dir").is_symlink()


def test_missing_paths_are_reported_and_the_others_processed(tmp_path: Path) -> None:
    (tmp_path / "good.py").write_bytes(GOOD)
    result = run_cli("fix", "missing.py", os.path.join("no", "such", "dir"), "good.py", cwd=tmp_path)
    assert result.returncode == 2
    assert sorted(result.stderr.splitlines()) == [
        "missing.py: error: no such file or directory",
        f"{os.path.join('no', 'such', 'dir')}: error: no such file or directory",
    ]
    assert "Changed good.py" in result.stdout


def test_a_fifo_named_py_does_not_hang_the_run(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "good.py").write_bytes(GOOD)
    result = run_cli_process("fix", "pipe.py", ".", cwd=tmp_path, timeout=60)
    assert result.returncode == 2
    assert result.stderr.splitlines() == ["pipe.py: error: not a regular file"]
    assert "Changed good.py" in result.stdout


def test_nothing_is_left_behind(tmp_path: Path) -> None:
    """Errors or not, a run leaves no temporary files."""
    for kind, (content, _) in BAD_FILES.items():
        (tmp_path / f"{kind.replace(' ', '_').replace('.', '')}.py").write_bytes(content)
    for index in range(6):
        (tmp_path / f"good_{index}.py").write_bytes(GOOD)
    before = set(snapshot(tmp_path))
    assert run_cli_process("fix", ".", cwd=tmp_path).returncode == 2
    assert set(snapshot(tmp_path)) == before
