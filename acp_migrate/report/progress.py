"""What a person at a terminal sees besides the findings: a progress bar while files are
analysed, and a closing summary (files scanned, files changed, findings by rule, time).

Both go to stderr, and only when stderr is a TTY and `--quiet` is not given: piped and
CI output stays exactly the findings.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from typing import IO, Any

from acp_migrate.engine.runner import Mode, RunResult
from acp_migrate.report.colour import PLAIN, Painter

BAR_WIDTH = 30


class ProgressBar:
    """`bar(done, total)` redraws at most every `interval` seconds (and always at the end);
    `close()` erases it."""

    def __init__(self, stream: IO[str], *, paint: Painter = PLAIN, interval: float = 0.1) -> None:
        self.stream = stream
        self.paint = paint
        self.interval = interval
        self._last: float | None = None
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and self._last is not None and now - self._last < self.interval:
            return
        self._last = now
        filled = BAR_WIDTH * done // total if total else BAR_WIDTH
        bar = self.paint("█" * filled, "green") + self.paint("░" * (BAR_WIDTH - filled), "dim")
        self.stream.write(f"\r{bar} {done}/{total} files")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn = False


def render_run_summary(result: RunResult, elapsed: float, names: Mapping[str, str], paint: Painter = PLAIN) -> str:
    scanned = len(result.files)
    findings = result.findings if result.mode is not Mode.FIX else result.remaining
    if result.mode is Mode.FIX:
        changed = f"{sum(o.written for o in result.files)} changed"
    elif result.mode is Mode.DIFF:
        changed = f"{len(result.changed_files)} would change"
    else:
        changed = f"{len({f.path for f in result.findings})} with findings"
    what = "left" if result.mode is Mode.FIX else "found"
    head = (
        f"{paint('acp-migrate', 'bold')}: {scanned} {'file' if scanned == 1 else 'files'} scanned, {changed}, "
        f"{len(findings)} {'finding' if len(findings) == 1 else 'findings'} {what} in {elapsed:.2f}s"
    )
    counts = Counter(f.code for f in findings)
    width = max((len(str(n)) for n in counts.values()), default=1)
    lines = [head] + [
        f"  {paint(code, 'red', 'bold')} {n:>{width}}  {names.get(code, '')}".rstrip()
        for code, n in sorted(counts.items())
    ]
    return "".join(line + "\n" for line in lines)


def stream_is_tty(stream: IO[Any]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
