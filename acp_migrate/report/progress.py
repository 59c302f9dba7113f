"""What a person at a terminal sees besides the findings: a progress line while files are
analysed, and a closing summary (the report's summary, files scanned, time, findings by
rule).

Both go to stderr, and only when stderr is a TTY and `--quiet` is not given: piped and
CI output stays exactly the findings. When stdout is that terminal too, the report leaves
its own summary out and the closing summary says it once.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from typing import IO, Any

from acp_migrate.results import Mode, RunResult
from acp_migrate.report.colour import PLAIN, Painter
from acp_migrate.report.text import check_summary, diff_summary, fix_summary, fixable_hint

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class ProgressBar:
    """`bar(done, total)` shows a spinner and a count; it redraws at most every `interval`
    seconds (and whenever `done == total`); `close()` erases it.

    No total and no bar: `total` is what the walk has found so far and grows while it goes
    on (a big run's outcomes only come once it ended), so a fraction of it would jump back.
    Before the first outcome the line counts the files found, then the files analysed."""

    def __init__(self, stream: IO[str], *, paint: Painter = PLAIN, interval: float = 0.1) -> None:
        self.stream = stream
        self.paint = paint
        self.interval = interval
        self._last: float | None = None
        self._drawn = False
        self._frame = 0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and self._last is not None and now - self._last < self.interval:
            return
        self._last = now
        spinner = self.paint(SPINNER[self._frame % len(SPINNER)], "green")
        self._frame += 1
        count = f"{_files(done)} analysed" if done or not total else f"{_files(total)} found"
        self.stream.write(f"\r\x1b[K{spinner} {count}")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn = False


def render_run_summary(
    result: RunResult, elapsed: float, names: Mapping[str, str], paint: Painter = PLAIN, *, by_rule: bool = True
) -> str:
    """The closing summary: the report's summary with the files scanned and the time, then
    the findings (fix: left) per rule, then (check) the fixable hint.

        Found 3 findings in 2 files (3 files scanned in 1.23s):
          ACP001 2  initialize-slash-commands
          ACP004 1  slash-commands-read
        [*] 2 fixable with `acp-migrate fix`.
    """
    if result.mode is Mode.CHECK:
        summary, findings = check_summary(result), result.findings
    elif result.mode is Mode.FIX:
        summary, findings = fix_summary(result), result.remaining
    else:
        summary, findings = diff_summary(result), result.remaining
    counts = Counter(f.code for f in findings) if by_rule else Counter()
    scanned = f"{_files(len(result.files))} scanned in {elapsed:.2f}s"
    colour = "green" if not findings and not result.errors else "bold"
    head = paint(f"{summary.removesuffix('.')} ({scanned})", colour) + (":" if counts else ".")
    width = max((len(str(n)) for n in counts.values()), default=1)
    lines = [head] + [
        f"  {paint(code, 'red', 'bold')} {n:>{width}}  {names.get(code, '')}".rstrip()
        for code, n in sorted(counts.items())
    ]
    hint = fixable_hint(result) if result.mode is Mode.CHECK else None
    if hint:
        lines.append(hint)
    return "".join(line + "\n" for line in lines)


def _files(number: int) -> str:
    return f"{number} file" if number == 1 else f"{number} files"


def stream_is_tty(stream: IO[Any]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
