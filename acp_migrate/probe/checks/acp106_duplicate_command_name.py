"""ACP106 duplicate-command-name: one list names the same command twice.

A client keys commands by name: which of the two it shows (and which description,
which input) is up to it, and `/name` runs only one. It happens when a user's and
a project's commands (or a skill and a built-in) collide. Fix: merge by name before
sending, the more specific source winning.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from acp_migrate.probe.checks._prelude import INIT, NEW, NEW_RESULT, WEB, update
from acp_migrate.probe.checks.base import Example, WireFinding, WireRule, finding
from acp_migrate.probe.wire import Transcript, command_names


class DuplicateCommandName(WireRule):
    code = "ACP106"
    name = "duplicate-command-name"
    summary = "A command list names the same command more than once."
    examples = (
        Example(INIT + NEW + NEW_RESULT + update("s1", "[" + WEB + "," + WEB + "]")),
        Example(INIT + NEW + NEW_RESULT + update("s1", "[" + WEB + "]"), flagged=False),
    )

    @classmethod
    def check(cls, transcript: Transcript) -> Iterator[WireFinding]:
        for listed in transcript.command_lists:
            counts = Counter(command_names(listed.value))
            repeated = [name for name, count in counts.items() if count > 1]
            if repeated:
                shown = ", ".join(f"{name!r} ×{counts[name]}" for name in repeated)
                yield finding(
                    transcript, cls.code, f"the list for session {listed.session_id} repeats {shown}", listed.frame
                )
