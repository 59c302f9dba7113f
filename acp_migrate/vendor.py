"""The runtime shim as one file a migrated project keeps: `acp-migrate fix` writes it
next to the agent module (`VENDORED_FILE`) so that the migrated server depends on
nothing it did not depend on before (the ACP SDK, or the project's own `acp` package).

The file is `acp_migrate/runtime/vendored.py` (read as a file: the codemod never imports
the shim) under a two-line header naming the release, in the project's style
(`ProjectStyle`): the template keeps every line within 79 columns and splits nothing a
formatter would join (magic trailing commas), so only its quotes change, by tokens.
Its one import of the project's `acp` sits in its own block after the standard
library, where isort puts it whether `acp` is first or third party. Only the standard
library is imported here; the codemod calls `vendored_source`.
"""

from __future__ import annotations

import functools
import io
import re
import tokenize
from pathlib import Path

from acp_migrate.settings import ProjectStyle

VENDORED_MODULE = "acp_command_advertiser"
VENDORED_FILE = VENDORED_MODULE + ".py"
TEMPLATE = Path(__file__).resolve().parent / "runtime" / "vendored.py"
# The first line of a vendored copy; the version follows it.
MARKER = "# acp-migrate: vendored runtime "
HEADER = MARKER + "{version}, written by `acp-migrate fix`.\n# Run it again to refresh this file; do not edit it.\n"
_HEADER_VERSION = re.compile(r"# acp-migrate: vendored runtime ([^\s,;]+)")
# The code (`code_digest`) of the shims earlier builds of this release wrote: their
# header names this release, yet they are outdated, not edited.
EARLIER_BUILDS = frozenset(
    [
        "0aa4c72f49e12dab",
        "de1b8010b5bd838f",
        "ddbf5006ac95ddb8",
        "fdc4aca673099087",
        "7bc64dec9dc6bc7b",
        "0af4b571b3641301",
        "a784c6eafcfb6028",
        "7179c84c96416c8b",
        "b3b472bcfaff1cec",
        "2ecf1c70354b1403",
        "af14a81831fc70b6",
    ]
)


def header_version(source: bytes | str) -> str | None:
    """The acp-migrate version named by a vendored copy's first line; None: not a vendored copy."""
    text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
    first = text.split("\n", 1)[0].lstrip("\ufeff")
    match = _HEADER_VERSION.match(first)
    return match.group(1) if match else None


def is_vendored(source: bytes | str) -> bool:
    return header_version(source) is not None


def same_code(one: bytes, other: bytes) -> bool:
    """Whether two copies mean the same: their ASTs without docstrings (so formatting,
    quotes, line wrapping and comments do not count). Not Python: not the same."""
    if one == other:
        return True
    code = _code(one)
    return code is not None and code == _code(other)


def replaceable(existing: bytes, content: bytes) -> bool:
    """Whether `fix` may write this release's `content` over the vendored copy `existing`:
    only when another release wrote it and its code differs. A copy with the same code is
    current however it is formatted; one naming this release whose code differs was
    edited by hand, and is left to its owner (ACP009 reports both kinds it does not keep)."""
    from acp_migrate.version import __version__

    if same_code(existing, content):
        return False
    return header_version(existing) != __version__ or code_digest(existing) in EARLIER_BUILDS


def code_digest(source: bytes) -> str | None:
    """A short digest of the copy's code (as `same_code` compares it)."""
    import hashlib  # only for a vendored copy: not on every start

    code = _code(source)
    return None if code is None else hashlib.sha256(code.encode()).hexdigest()[:16]


def vendored_source(version: str | None = None, style: ProjectStyle | None = None, newline: str = "\n") -> bytes:
    """The bytes `acp-migrate fix` writes as `VENDORED_FILE` (UTF-8), with the line
    endings of the project's files (`newline`)."""
    if version is None:
        from acp_migrate.version import __version__ as version
    source = _build(version, style or ProjectStyle())
    return source if newline == "\n" else source.replace(b"\n", newline.encode())


def newline_of(source: bytes) -> str:
    """The line ending a file's first line ends with (LF when it has none)."""
    first = source.split(b"\n", 1)[0]
    return "\r\n" if first.endswith(b"\r") else "\n"


@functools.lru_cache(maxsize=8)
def _build(version: str, style: ProjectStyle) -> bytes:
    text = TEMPLATE.read_text(encoding="utf-8")
    if style.quote == "'":
        text = _single_quoted(text)
    return (HEADER.format(version=version) + text).encode("utf-8")


def _code(source: bytes) -> str | None:
    """The source without docstrings, comments and formatting (unparsed from its AST)."""
    import ast

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return ast.unparse(tree)


def _single_quoted(text: str) -> str:
    """`text` with its one-line string literals in single quotes, as a formatter with
    `quote-style = "single"` writes them (docstrings keep double quotes)."""
    lines = text.splitlines(keepends=True)
    edits = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        literal = token.string
        if token.type != tokenize.STRING or '"""' in literal or "'" in literal:
            continue
        quote = literal.index('"')
        if quote < len(literal) - 1 and literal.endswith('"') and "\\" not in literal:
            edits.append((token.start, token.end, literal[:quote] + "'" + literal[quote + 1 : -1] + "'"))
    for (row, start), (_, end), new in reversed(edits):
        line = lines[row - 1]
        lines[row - 1] = line[:start] + new + line[end:]
    return "".join(lines)
