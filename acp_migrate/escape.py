"""Text that a repository or an agent controls, made safe to print in every format.

A file name, a rule's message quoting code, or an agent's error text and stderr may
hold control characters (an escape sequence drives the terminal, a line break forges
a line), bytes that are not UTF-8, or begin a line with `::`, which GitHub Actions runs
as a workflow command. `check`'s reports and the probe's use these, and nothing else.
"""

from __future__ import annotations

import re

# Control characters and undecodable bytes of a name (surrogateescape).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
WORKFLOW_COMMAND = "::"


def shown(text: str) -> str:
    """`text` safe to print: control characters and undecodable bytes as `\\xNN` escapes."""
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def shown_line(text: str) -> str:
    """One line of text output: `shown`, and never the start of a workflow command (the
    runner reads one after leading blanks too): its first colon escaped."""
    text = shown(text)
    start = len(text) - len(text.lstrip())
    if text.startswith(WORKFLOW_COMMAND, start):
        return f"{text[:start]}\\x3a{text[start + 1 :]}"
    return text


def shown_path(path: str) -> str:
    """A path that starts a line: `shown`, and behind `./` when it would begin a
    workflow command (still the same path to whoever reads it)."""
    text = shown(path)
    return "./" + text if text.lstrip().startswith(WORKFLOW_COMMAND) else text


def undecodable_escaped(text: str) -> str:
    """`text` valid as UTF-8 (for JSON): the bytes of a name that were not UTF-8 as
    `shown` writes them."""
    return _UNDECODABLE.sub(_escape, text) if _UNDECODABLE.search(text) else text


_UNDECODABLE = re.compile("[\ud800-\udfff]")


def escape_data(text: str) -> str:
    """The message of a GitHub workflow command: `%`, CR and LF as the runner decodes
    them, other control characters as `shown` writes them."""
    return shown(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    """A property of a workflow command (`title=`, `file=`): also `:` and `,`."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")
