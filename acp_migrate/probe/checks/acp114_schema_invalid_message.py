"""ACP114 schema-invalid-message: a setup result or a `session/update` does not match the ACP schema.

Every setup result and every session update is validated against pydantic models of
the ACP schema (`probe/schema.py`): a setup result's `modes`, `models` and
`configOptions`, and each update's kind and the fields a client reads (a message
chunk's `content`, a tool call's `toolCallId` and `title`, a plan's entries, a mode
update's `currentModeId`). The official SDKs' clients validate what they read, and
reject a message that fails, with whatever it carried. Unknown update kinds pass
(newer than this probe); what other rules judge is theirs: a missing `sessionId`
(ACP107, ACP113), the command list and its items (ACP103, ACP105). One finding a
message, naming the first few problems.
"""

from __future__ import annotations

from collections.abc import Iterator

from acp_migrate.probe.checks._prelude import INIT, NEW, NEW_RESULT
from acp_migrate.probe.checks.base import Example, WireFinding, WireRule, finding
from acp_migrate.probe.schema import SESSION_CARRYING, session_update_problems, setup_result_problems
from acp_migrate.probe.wire import Transcript

SHOWN = 3


def _update(update: str) -> str:
    return '<- {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":%s}}\n' % update


class SchemaInvalidMessage(WireRule):
    code = "ACP114"
    name = "schema-invalid-message"
    summary = "A setup result or a `session/update` does not match the ACP schema."
    basis = "spec"
    spec = "ACP schema: each result and notification is an instance of its schema type (`NewSessionResponse`, `SessionNotification`, ...)."
    examples = (
        Example(INIT + NEW + '<- {"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1","modes":{"currentModeId":1}}}\n'),
        Example(INIT + NEW + NEW_RESULT + _update('{"sessionUpdate":"agent_message_chunk"}')),
        Example(
            INIT
            + NEW
            + NEW_RESULT
            + _update('{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}'),
            flagged=False,
        ),
    )

    @classmethod
    def check(cls, transcript: Transcript) -> Iterator[WireFinding]:
        for step in transcript.setup_steps:
            if step.failed:
                continue
            result = step.response.result
            if step.method in SESSION_CARRYING and not (
                isinstance(result, dict) and isinstance(result.get("sessionId"), str)
            ):
                continue  # ACP113's
            if step.method not in SESSION_CARRYING and result is None:
                continue  # an old agent's `null` for load and resume: no session id owed, nothing to read
            problems = setup_result_problems(step.method, result)
            if problems:
                yield finding(transcript, cls.code, f"the {step.method} result {_listed(problems)}", step.response)
        for frame in transcript.session_updates():
            problems = session_update_problems(frame.params.get("update"))
            if problems:
                kind = (
                    (frame.params.get("update") or {}).get("sessionUpdate")
                    if isinstance(frame.params.get("update"), dict)
                    else None
                )
                yield finding(
                    transcript, cls.code, f"a session/update {kind or ''} {_listed(problems)}".replace("  ", " "), frame
                )


def _listed(problems: list[str]) -> str:
    more = f"; and {len(problems) - SHOWN} more" if len(problems) > SHOWN else ""
    return "; ".join(problems[:SHOWN]) + more
