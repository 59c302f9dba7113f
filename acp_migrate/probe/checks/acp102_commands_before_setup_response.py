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
them is that one's.
"""

from __future__ import annotations

from acp_migrate.probe.checks import finding
from acp_migrate.probe.checks._prelude import INIT, NEW, NEW_RESULT, WEB, update
from acp_migrate.probe.wire import Transcript

CODE = "ACP102"
NAME = "commands-before-setup-response"
SUMMARY = "An `available_commands_update` for a session came before the response that set the session up."

EXAMPLES = [
    (INIT + NEW + update("s1", "[" + WEB + "]") + NEW_RESULT, True),
    (INIT + NEW + NEW_RESULT + update("s1", "[" + WEB + "]"), False),
]


def check(transcript: Transcript):
    for listed in transcript.command_lists:
        if listed.in_setup_result or listed.session_id is None:
            continue
        # A setup of that id sent before the list and answered after it (in a burst, not
        # necessarily the last request sent; a fork's id is known from its response).
        for step in transcript.setup_steps:
            if step.request.index > listed.frame.index:
                break
            if step.session_id != listed.session_id:
                continue
            if step.response is not None and step.response.index < listed.frame.index:
                continue
            if _answered_between(transcript, step, listed.frame.index):
                continue  # a burst of setups of one id: the list follows the other's response
            if step.method in ("session/new", "session/fork"):
                why = "clients drop updates for a session id they do not know yet"
            else:
                why = "the client may not have opened the session yet, and the setup result replaces the list"
            answered = f"the {step.method} response (frame {step.response.index})" if step.response else "any response"
            yield finding(
                transcript,
                CODE,
                f"available_commands_update for session {listed.session_id} came before {answered}: {why}",
                listed.frame,
            )
            break


def _answered_between(transcript: Transcript, step, index: int) -> bool:
    return any(
        other is not step
        and other.session_id == step.session_id
        and other.response is not None
        and step.request.index < other.response.index < index
        for other in transcript.setup_steps
    )
