"""ACP112 late-command-list: a setup's first list came after the probe's settle window (a note).

The probe waits `--settle` seconds after each setup response before it sends its next
request. A setup's first list that comes after that request is late: the user saw the
session without its commands for a while. It is credited to the setup it belongs to
(`Transcript.credits`: per session id, in the order of the answered setups), whatever
step the probe is running then, so a slow agent's verdict does not depend on where a
list lands; and it is a note, not a finding: the list arrives (the probe waits for the
lists still owed before it ends the run, up to `--list-wait`), and how late depends on
the machine. A list sent during a prompt's turn is not late: a turn may change the
commands, and an agent may well build its list then.

The judgement is by frame order only, against one stated bound (`--settle`). Raise it
to wait for such lists; `--output-format timeline` shows where they land.
"""

from __future__ import annotations

from collections.abc import Iterator

from acp_migrate.probe.checks._prelude import INIT_LOAD, NEW, NEW_RESULT, WEB, update
from acp_migrate.probe.checks.base import NOTE, Example, WireFinding, WireRule, finding
from acp_migrate.probe.wire import Transcript

LOAD = '-> {"jsonrpc":"2.0","id":2,"method":"session/load","params":{"sessionId":"s1","cwd":"/w","mcpServers":[]}}\n'
PROMPT = '-> {"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}\n'


class LateCommandList(WireRule):
    code = "ACP112"
    name = "late-command-list"
    summary = "A note: a setup's first list came after the probe's --settle window (credited to that setup)."
    level = NOTE  # its only level: the verdict never depends on it
    examples = (
        Example(INIT_LOAD + NEW + NEW_RESULT + LOAD + update("s1", "[" + WEB + "]")),
        Example(INIT_LOAD + NEW + NEW_RESULT + update("s1", "[" + WEB + "]") + LOAD, flagged=False),
        Example(INIT_LOAD + NEW + NEW_RESULT + PROMPT + update("s1", "[" + WEB + "]"), flagged=False),
    )

    @classmethod
    def check(cls, transcript: Transcript) -> Iterator[WireFinding]:
        for listed in transcript.command_lists:
            if not transcript.is_late(listed):
                continue
            setup = transcript.setup_of(listed)
            running = transcript.step_of(listed.frame)
            yield finding(
                transcript,
                cls.code,
                f"the list for session {listed.session_id} ({setup.method}, answered at frame {setup.response.index}) "
                f"came after the --settle window, during {running.method if running else 'the run'}: "
                "raise --settle to wait for it",
                listed.frame,
                level=NOTE,
            )
