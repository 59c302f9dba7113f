"""ACP112 late-command-list: an `available_commands_update` came after its setup's settle window (a note).

The probe waits `--settle` seconds after each setup response before it sends its next
request. A list for the session that comes after that request is late: the user saw
the session without its commands for a while. It is credited to the setup it belongs
to, the last setup of that session id before it, whatever step the probe is running
then (a prompt, another setup, a close), so a slow agent's verdict does not depend
on which step a list happens to land in; and it is a note, not a finding: the list
arrives, and how late depends on the machine.

The judgement is by frame order only. Raise `--settle` to wait for such lists;
`--output-format timeline` shows where they land.
"""

from __future__ import annotations

from collections.abc import Iterator

from acp_migrate.probe.checks._prelude import INIT, NEW, NEW_RESULT, WEB, update
from acp_migrate.probe.checks.base import NOTE, Example, WireFinding, WireRule, finding
from acp_migrate.probe.wire import Transcript

PROMPT = '-> {"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}\n'


class LateCommandList(WireRule):
    code = "ACP112"
    name = "late-command-list"
    summary = "A note: an `available_commands_update` came after its setup's settle window (credited to that setup)."
    level = NOTE  # its only level: the verdict never depends on it
    examples = (
        Example(INIT + NEW + NEW_RESULT + PROMPT + update("s1", "[" + WEB + "]")),
        Example(INIT + NEW + NEW_RESULT + update("s1", "[" + WEB + "]") + PROMPT, flagged=False),
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
                f"came after its settle window, during {running.method if running else 'the run'}: "
                "raise --settle to wait for it",
                listed.frame,
                level=NOTE,
            )
