"""ACP111 partial-command-update: an `available_commands_update` drops commands the session had, with no prompt in between.

Each update is the complete replacement list, not a delta. An agent that sends one
update per source (its built-ins, then the skills, then an MCP server's prompts)
leaves the client with the last source's commands only. Reported when a list lacks
names the session's previous list (its setup result's, or the last update's) had,
and no prompt turn came between the two, since a turn may legitimately change the
commands (`/reset`). An empty list clears the commands on purpose and is not reported;
a new setup or a close of the id starts afresh.

Fix: merge every source into one list, and send the whole list each time.
"""

from __future__ import annotations

from collections.abc import Iterator

from acp_migrate.probe.checks._prelude import INIT, NEW, NEW_RESULT, WEB, update
from acp_migrate.probe.checks.base import Example, WireFinding, WireRule, finding
from acp_migrate.probe.wire import Transcript, command_names

TEST = '{"name":"test","description":"Run the tests"}'
PROMPT = '-> {"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}\n'


class PartialCommandUpdate(WireRule):
    code = "ACP111"
    name = "partial-command-update"
    summary = "An `available_commands_update` drops commands the session had, as if it were a delta."
    examples = (
        Example(INIT + NEW + NEW_RESULT + update("s1", "[" + WEB + "]") + update("s1", "[" + TEST + "]")),
        Example(
            INIT + NEW + NEW_RESULT + update("s1", "[" + WEB + "]") + update("s1", "[" + WEB + "," + TEST + "]"),
            flagged=False,
        ),
        Example(
            INIT
            + NEW
            + NEW_RESULT
            + update("s1", "[" + WEB + "," + TEST + "]")
            + PROMPT
            + update("s1", "[" + WEB + "]"),
            flagged=False,
        ),
    )

    @classmethod
    def check(cls, transcript: Transcript) -> Iterator[WireFinding]:
        resets = {}  # frame index -> the session id a setup request or a close response resets
        for step in transcript.steps:
            if step.session_id is None:
                continue
            if step.method in ("session/new", "session/load", "session/resume", "session/fork"):
                resets[step.request.index] = step.session_id
            elif step.method == "session/close" and step.response is not None and not step.failed:
                resets[step.response.index] = step.session_id
        prompts = {step.request.index for step in transcript.steps if step.method == "session/prompt"}
        lists = {listed.frame.index: listed for listed in transcript.command_lists}
        held: dict[str, list[str]] = {}  # session id -> the names it holds since the last prompt
        for frame in transcript.frames:
            if frame.index in resets:
                held.pop(resets[frame.index], None)
            if frame.index in prompts:
                held.clear()  # a turn may change any session's commands
            listed = lists.get(frame.index)
            if listed is None or listed.session_id is None or not isinstance(listed.value, list):
                continue
            if transcript.setup_of(listed) is None:
                continue  # a session never set up: ACP107's, not a second finding on the same frame
            names = command_names(listed.value)
            before = held.get(listed.session_id)
            dropped = [name for name in before or [] if name not in names]
            if before and names and dropped and not listed.in_setup_result:  # [] clears, on purpose
                yield finding(
                    transcript,
                    cls.code,
                    f"available_commands_update for session {listed.session_id} drops {', '.join(dropped)}, "
                    "which its previous list had, with no prompt in between: each update replaces the whole list",
                    frame,
                )
            held[listed.session_id] = names
