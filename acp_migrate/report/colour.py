"""ANSI colour for terminals: only on a TTY, never with `--no-color` or `NO_COLOR`.

`FORCE_COLOR` (any value but empty or `0`) turns it on without a TTY, as in other tools.
Machine formats (JSON, SARIF, GitHub) and piped output are never coloured.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import IO, Any

_CODES = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
}
RESET = "\x1b[0m"


def colour_enabled(stream: IO[Any], *, no_color: bool = False, environ: Mapping[str, str] | None = None) -> bool:
    env = os.environ if environ is None else environ
    if no_color or env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR", "") not in ("", "0"):
        return True
    if env.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


class Painter:
    """`paint(text, "red", "bold")`: the text wrapped in ANSI codes, or unchanged when disabled."""

    def __init__(self, enabled: bool = False) -> None:
        self.enabled = enabled

    def __call__(self, text: str, *styles: str) -> str:
        if not self.enabled or not styles or not text:
            return text
        return "\x1b[" + ";".join(_CODES[s] for s in styles) + "m" + text + RESET


PLAIN = Painter(False)
