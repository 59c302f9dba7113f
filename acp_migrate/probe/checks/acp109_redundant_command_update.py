"""ACP109 redundant-command-update: an `available_commands_update` repeats the list the session already has.

Each update is a complete replacement: sending the same list again changes
nothing for the client but redraws its command menu and costs a frame, and it often
means two code paths advertise the same commands (the RFC-0032 "double
advertisement"). Compared with what the client holds for that session: the last
update, or on protocol v2 the setup result's `availableCommands` (v1 clients do not
read that field, so one follow-up update with the same list is not redundant there).
Judged per setup (each list is credited to the setup it belongs to, whatever the
timing: `Transcript.credits`), so a burst's setups of one id each get their list;
a close of the session starts afresh.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from acp_migrate.probe.checks._prelude import INIT, NEW, NEW_RESULT, WEB, update
from acp_migrate.probe.checks.base import Example, WireFinding, WireRule, finding
from acp_migrate.probe.wire import CommandList, Step, Transcript


class RedundantCommandUpdate(WireRule):
    code = "ACP109"
    name = "redundant-command-update"
    summary = "An `available_commands_update` repeats the list the session already holds."
    examples = (
        Example(INIT + NEW + NEW_RESULT + update("s1", "[" + WEB + "]") + update("s1", "[" + WEB + "]")),
        Example(INIT + NEW + NEW_RESULT + update("s1", "[" + WEB + "]") + update("s1", "[]"), flagged=False),
    )

    @classmethod
    def check(cls, transcript: Transcript) -> Iterator[WireFinding]:
        # Per setup (`Transcript.credits`): each setup of an id starts afresh, so in a
        # burst each sends its own list, whatever order they arrive in.
        for setup in transcript.setup_steps:
            held = None  # the canonical JSON of the list the setup's session holds
            for listed in transcript.lists_of(setup):
                if not isinstance(listed.value, list):
                    continue
                canonical = json.dumps(listed.value, sort_keys=True)
                if listed.in_setup_result:
                    held = canonical if transcript.protocol_version >= 2 else None
                    continue
                if held == canonical and not _closed_between(transcript, setup, listed):
                    yield finding(
                        transcript,
                        cls.code,
                        f"available_commands_update for session {listed.session_id} repeats the list it holds "
                        f"({len(listed.value)} command{'' if len(listed.value) == 1 else 's'})",
                        listed.frame,
                    )
                held = canonical


def _closed_between(transcript: Transcript, setup: Step, listed: CommandList) -> bool:
    """A close of the session before the list: the session holds nothing (ACP107's)."""
    return any(
        s.method == "session/close"
        and s.session_id == setup.session_id
        and not s.failed
        and setup.request.index < s.response.index < listed.frame.index
        for s in transcript.steps
    )
