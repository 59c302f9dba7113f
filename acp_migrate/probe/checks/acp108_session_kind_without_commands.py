"""ACP108 session-kind-without-commands: `session/new` gets commands, a loaded, resumed or forked session none.

A client that loads, resumes or forks a session starts from nothing: what the
session shows is the setup result's `availableCommands` and the updates for it
that belong to it (by session id, late ones included). When a new session gets
commands and one of these gets an empty list or none at all, the user loses their
commands as soon as they reopen a conversation.

A setup the agent refuses with an error (a load of a session with no history:
-32002, -32000, -32603) is not this: it is about sessions, not commands, and the
report shows it as a note with the error's details. Only a setup that succeeds
without commands is reported.

Fix: advertise the list to every session, whichever setup created it (for a Python
agent, `acp-migrate fix` does it: `acp-migrate rules ACP001`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from acp_migrate.probe.checks._prelude import INIT_LOAD, NEW, NEW_RESULT, WEB, update
from acp_migrate.probe.checks.base import Example, WireFinding, WireRule, finding
from acp_migrate.probe.wire import SETUP_METHODS, Step, Transcript

LOAD = '-> {"jsonrpc":"2.0","id":2,"method":"session/load","params":{"sessionId":"s1","cwd":"/work","mcpServers":[]}}\n'
# A new session that gets its commands, then a load of it answered without any.
NEW_THEN_LOAD = (
    INIT_LOAD + NEW + NEW_RESULT + update("s1", "[" + WEB + "]") + LOAD + '<- {"jsonrpc":"2.0","id":2,"result":{}}\n'
)


def commands_held(transcript: Transcript, step: Step) -> Any:
    """What a client holds for the step's session: the last list the step got (its
    result's, then the updates credited to it: `Transcript.credits`, late ones too)."""
    lists = transcript.lists_of(step)
    held = lists[-1].value if lists else None
    return held if isinstance(held, list) else []


class SessionKindWithoutCommands(WireRule):
    code = "ACP108"
    name = "session-kind-without-commands"
    summary = "A loaded, resumed or forked session gets no commands while a new one gets some."
    examples = (
        Example(NEW_THEN_LOAD),
        Example(NEW_THEN_LOAD + update("s1", "[" + WEB + "]"), flagged=False),
    )

    @classmethod
    def check(cls, transcript: Transcript) -> Iterator[WireFinding]:
        setups = [s for s in transcript.steps if s.method in SETUP_METHODS]
        new = next((s for s in setups if s.method == "session/new" and not s.failed), None)
        if new is None or not commands_held(transcript, new):
            return
        for step in setups:
            if step.method == "session/new" or step.failed:  # a refusal is a note (report.py)
                continue
            if not commands_held(transcript, step):
                yield finding(
                    transcript,
                    cls.code,
                    f"session {step.session_id} gets no commands after {step.method}, "
                    f"while session/new gets {_count(len(commands_held(transcript, new)))}",
                    step.response,
                    step.session_id,
                )


def _count(number: int) -> str:
    return f"{number} command" + ("" if number == 1 else "s")
