"""Unified diff of exactly what `fix` would write, in a form `git apply` and `patch -p1` accept.

The patch is bytes: each file's lines are decoded with its own encoding for the
diff and encoded back with it, so CRLF, a BOM and non-UTF-8 sources survive
byte for byte.
"""

from __future__ import annotations

import codecs
import difflib
import itertools
import os

from acp_migrate.results import CompanionFile, FileOutcome, RunResult

NO_NEWLINE_MARKER = "\\ No newline at end of file\n"


def render_diff(result: RunResult) -> bytes:
    patches = b"".join(file_diff(outcome) for outcome in result.files)
    return patches + b"".join(companion_diff(companion) for companion in result.companions)


def companion_diff(companion: CompanionFile) -> bytes:
    """The patch creating (or refreshing) a file fix writes beside a fixed one (UTF-8)."""
    if companion.content is None:
        return b""
    if companion.original is None:
        name = os.fsencode(companion.path.replace(os.sep, "/"))
        lines = _split_lines(companion.content.decode("utf-8", "surrogateescape"))
        body = "".join("+" + line for line in lines)
        if lines and not lines[-1].endswith("\n"):
            body += "\n" + NO_NEWLINE_MARKER
        header = b"--- /dev/null\n+++ %s\n@@ -0,0 +1,%d @@\n" % (quote_path(b"b/" + name), len(lines))
        return header + body.encode("utf-8", "surrogateescape")
    return file_diff(FileOutcome(path=companion.path, original=companion.original, fixed_source=companion.content))


def file_diff(outcome: FileOutcome) -> bytes:
    """The patch for one outcome; empty when it does not change."""
    if outcome.original is None or outcome.fixed_source is None:
        return b""
    encoding = _byte_faithful(outcome.encoding)
    old = _split_lines(outcome.original.decode(encoding, "surrogateescape"))
    new = _split_lines(outcome.fixed_source.decode(encoding, "surrogateescape"))
    name = os.fsencode(outcome.path.replace(os.sep, "/"))  # the path's own bytes
    header = b"--- %s\n+++ %s\n" % (quote_path(b"a/" + name), b"/dev/null" if outcome.deleted else quote_path(b"b/" + name))
    # Skip difflib's two header lines: ours carry the prefixes and the path's own bytes.
    hunks = itertools.islice(difflib.unified_diff(old, new, lineterm="\n", n=3), 2, None)
    body = []
    for line in hunks:
        body.append(line)
        if not line.endswith("\n"):
            # A last line without a newline: git needs it terminated and marked.
            body.append("\n" + NO_NEWLINE_MARKER)
    if not body:
        return b""
    return header + "".join(body).encode(encoding, "surrogateescape")


_C_ESCAPES = {7: b"\\a", 8: b"\\b", 9: b"\\t", 10: b"\\n", 11: b"\\v", 12: b"\\f", 13: b"\\r", 34: b'\\"', 92: b"\\\\"}


def quote_path(name: bytes) -> bytes:
    """A patch header's name as git writes it: in C quotes when it holds a control
    character, `"` or `\\` (an escape sequence must not reach the terminal, a line break
    must not end the header); `git apply` and `patch` read both forms."""
    if not any(byte < 0x20 or byte in (0x22, 0x5C, 0x7F) for byte in name):
        return name
    quoted = b"".join(
        _C_ESCAPES.get(byte) or (b"\\%03o" % byte if byte < 0x20 or byte == 0x7F else bytes([byte])) for byte in name
    )
    return b'"' + quoted + b'"'


def _byte_faithful(encoding: str) -> str:
    # `utf-8-sig` would drop the BOM from the first line, and git would not find it.
    name = codecs.lookup(encoding).name
    return "utf-8" if name == "utf-8-sig" else name


def _split_lines(text: str) -> list[str]:
    # Only "\n" ends a line for git; str.splitlines would also split on \r, \f, \x1c, U+2028...
    lines = text.split("\n")
    last = lines.pop()
    return [line + "\n" for line in lines] + ([last] if last else [])


_DIFF_STYLES = ((b"+++ ", b"1"), (b"--- ", b"1"), (b"@@", b"36"), (b"+", b"32"), (b"-", b"31"))


def colour_patch(patch: bytes) -> bytes:
    """The patch for a terminal: headers bold, hunk ranges cyan, removals red, additions green.

    Only the display changes; piped output is never coloured, so `git apply` reads plain patches.
    """
    out = []
    for line in patch.splitlines(keepends=True):
        body = line.rstrip(b"\r\n")
        ending = line[len(body) :]
        style = next((code for prefix, code in _DIFF_STYLES if body.startswith(prefix)), None)
        out.append(b"\x1b[" + style + b"m" + body + b"\x1b[0m" + ending if style and body else line)
    return b"".join(out)
