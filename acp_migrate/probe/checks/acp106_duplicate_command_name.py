"""ACP106 duplicate-command-name: one list names the same command twice.

A client keys commands by name: which of the two it shows (and which description,
which input) is up to it, and `/name` runs only one. It happens when a user's and
a project's commands (or a skill and a built-in) collide. Fix: merge by name before
sending, the more specific source winning.
"""

from __future__ import annotations

from collections import Counter

from acp_migrate.probe.checks import finding
from acp_migrate.probe.checks._prelude import INIT, NEW, NEW_RESULT, WEB, update
from acp_migrate.probe.wire import Transcript, command_names

CODE = "ACP106"
NAME = "duplicate-command-name"
SUMMARY = "A command list names the same command more than once."

EXAMPLES = [
    (INIT + NEW + NEW_RESULT + update("s1", "[" + WEB + "," + WEB + "]"), True),
    (INIT + NEW + NEW_RESULT + update("s1", "[" + WEB + "]"), False),
]


def check(transcript: Transcript):
    for listed in transcript.command_lists:
        counts = Counter(command_names(listed.value))
        repeated = [name for name, count in counts.items() if count > 1]
        if repeated:
            shown = ", ".join(f"{name!r} ×{counts[name]}" for name in repeated)
            yield finding(transcript, CODE, f"the list for session {listed.session_id} repeats {shown}", listed.frame)
