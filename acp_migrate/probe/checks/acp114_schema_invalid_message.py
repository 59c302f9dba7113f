"""ACP114 schema-invalid-message: a setup result or a `session/update` does not match the ACP schema.

Every setup result and every session update is validated against pydantic models of
the ACP schema: a setup result's `modes`, `models` and
`configOptions`, and each update's kind and the fields a client reads (a message
chunk's `content`, a tool call's `toolCallId` and `title`, a plan's entries, a mode
update's `currentModeId`). The official SDKs' clients validate what they read, and
reject a message that fails, with whatever it carried. Unknown update kinds pass
(newer than this probe); what other rules judge is theirs: a missing `sessionId`
(ACP107, ACP113), the command list and its items (ACP103, ACP105). One finding a
message, naming the first few problems. A setup result's `modes`, `models` or
`configOptions` sent as `null` is a note: the schema allows it, but a field with no
value is omitted.
"""

from __future__ import annotations

from collections.abc import Iterator

from acp_migrate.probe.checks._prelude import INIT, NEW, NEW_RESULT
from acp_migrate.probe.checks.base import NOTE, Example, WireFinding, WireRule, finding
from acp_migrate.probe.schema import lacks_session, null_fields, session_update_problems, setup_result_problems
from acp_migrate.probe.wire import Transcript

SHOWN = 3


def _update(update: str) -> str:
    return '<- {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":' + update + "}}\n"


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
            if lacks_session(step.method, result) or result is None:
                continue  # ACP113's; or an old agent's `null` for load or resume: nothing to read
            problems = setup_result_problems(step.method, result)
            if problems:
                yield finding(transcript, cls.code, f"the {step.method} result {_listed(problems)}", step.response)
            nulls = null_fields(step.method, result) if isinstance(result, dict) else []
            if nulls:
                # no method named: the same nulls from every setup are one note (report.py)
                message = f"a setup result has {', '.join(nulls)}: null (schema-valid; omitting the key is tidier)"
                yield finding(transcript, cls.code, message, step.response, level=NOTE)
        for frame in transcript.session_updates():
            update = frame.params.get("update")
            problems = session_update_problems(update)
            if problems:
                kind = update.get("sessionUpdate") if isinstance(update, dict) else None
                what = f"a session/update {kind}" if isinstance(kind, str) else "a session/update"
                yield finding(transcript, cls.code, f"{what} {_listed(problems)}", frame)


def _listed(problems: list[str]) -> str:
    more = f"; and {len(problems) - SHOWN} more" if len(problems) > SHOWN else ""
    return "; ".join(problems[:SHOWN]) + more
