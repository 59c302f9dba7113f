"""ACP109 redundant-command-update: an `available_commands_update` repeats the list the session already has.

Each update is a complete replacement: sending the same list again changes
nothing for the client but redraws its command menu and costs a frame, and it often
means two code paths advertise the same commands (the RFC-0032 "double
advertisement"). Compared with what the client holds for that session: the last
update, or on protocol v2 the setup result's `availableCommands` (v1 clients do not
read that field, so one follow-up update with the same list is not redundant there).
A setup of the same id (its request, and its response), or its close, starts afresh.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from acp_migrate.probe.checks._prelude import INIT, NEW, NEW_RESULT, WEB, update
from acp_migrate.probe.checks.base import Example, WireFinding, WireRule, finding
from acp_migrate.probe.wire import Transcript


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
        # A setup's request and its response start afresh: in a burst, each setup of an id
        # sends its own list, and what came before a response is superseded by it.
        setup_requests = {s.request.index: s for s in transcript.setup_steps}
        setup_requests.update({s.response.index: s for s in transcript.setup_steps if s.response is not None})
        # A closed session holds nothing: an update after it is ACP107's, not a repeat.
        closes = {
            s.response.index: s.session_id for s in transcript.steps if s.method == "session/close" and not s.failed
        }
        lists = {listed.frame.index: listed for listed in transcript.command_lists}
        held: dict[str, str] = {}  # session id -> the canonical JSON of its list
        for frame in transcript.frames:
            step = setup_requests.get(frame.index)
            if step is not None and step.session_id is not None:
                held.pop(step.session_id, None)
            if step is not None and step.request is frame:
                continue
            if frame.index in closes:
                held.pop(closes[frame.index], None)
                continue
            listed = lists.get(frame.index)
            if listed is None or listed.session_id is None or not isinstance(listed.value, list):
                continue
            if transcript.setup_of(listed) is None:
                continue  # a session never set up: ACP107's, not a second finding on the same frame
            canonical = json.dumps(listed.value, sort_keys=True)
            if listed.in_setup_result:
                if transcript.protocol_version >= 2:
                    held[listed.session_id] = canonical
                continue
            if held.get(listed.session_id) == canonical:
                yield finding(
                    transcript,
                    cls.code,
                    f"available_commands_update for session {listed.session_id} repeats the list it holds "
                    f"({len(listed.value)} command{'' if len(listed.value) == 1 else 's'})",
                    frame,
                )
            held[listed.session_id] = canonical
