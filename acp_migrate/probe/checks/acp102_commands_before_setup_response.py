"""ACP102 commands-before-setup-response: an `available_commands_update` for a session came before its setup response.

For `session/new` and `session/fork` the client learns the session id from the
response: clients such as Zed and IntelliJ drop updates for an id they do not know
yet, so commands sent earlier are lost. For `session/load` and `session/resume` the
client may not have opened the session yet, and the setup result (its
`availableCommands`, or its absence) replaces what came before.

Typical cause: the agent sends the update from inside the setup handler
(`await conn.session_update(...)`), or from a task started there that runs before the
response is written. Fix: return the list in the setup result, or send the update
only after the response is out (`acp_migrate.runtime.CommandAdvertiser` holds it
until then). The order is judged by the frames as the client read them, not by time;
in a burst of setups of one id (`--burst`), a list that follows the response of one of
them is that one's, and a list that comes during a load or resume, when the setup of
that id before it has had no list yet, is that setup's late list (ACP112).
"""

from __future__ import annotations

from collections.abc import Iterator

from acp_migrate.probe.checks._prelude import INIT, NEW, NEW_RESULT, WEB, update
from acp_migrate.probe.checks.base import Example, WireFinding, WireRule, finding
from acp_migrate.probe.wire import Transcript


class CommandsBeforeSetupResponse(WireRule):
    code = "ACP102"
    name = "commands-before-setup-response"
    summary = "An `available_commands_update` for a session came before the response that set the session up."
    basis = "spec"
    spec = "After session setup, the Agent MAY announce commands that were not included in the response, or update the list, via the available_commands_update session notification"
    examples = (
        Example(INIT + NEW + update("s1", "[" + WEB + "]") + NEW_RESULT),
        Example(INIT + NEW + NEW_RESULT + update("s1", "[" + WEB + "]"), flagged=False),
    )

    @classmethod
    def check(cls, transcript: Transcript) -> Iterator[WireFinding]:
        for listed in transcript.command_lists:
            if listed.in_setup_result:
                continue
            # The setup it belongs to (`Transcript.setup_of`: by session id, in a burst not
            # necessarily the last request sent), still unanswered.
            step = transcript.setup_of(listed)
            if step is None or (step.response is not None and step.response.index < listed.frame.index):
                continue
            if step.method in ("session/new", "session/fork"):
                why = "clients drop updates for a session id they do not know yet"
            else:
                why = "the client may not have opened the session yet, and the setup result replaces the list"
            answered = f"the {step.method} response (frame {step.response.index})" if step.response else "any response"
            yield finding(
                transcript,
                cls.code,
                f"available_commands_update for session {listed.session_id} came before {answered}: {why}",
                listed.frame,
            )
