"""ACP107 update-for-unknown-session: a `session/update` for a session id never set up, or already closed.

A client routes each update by `sessionId`: an id that no setup response gave it
(a stale id, a typo, another connection's session) or one it closed (a
`session/close` that succeeded, and no setup of that id since) is dropped, or
worse, reopens a closed tab. Updates sent while a setup of that id is still
unanswered are ACP102's. An update without a `sessionId` is reported too.
"""

from __future__ import annotations

from collections.abc import Iterator

from acp_migrate.probe.checks._prelude import INIT, NEW, NEW_RESULT, WEB, update
from acp_migrate.probe.checks.base import Example, WireFinding, WireRule, finding
from acp_migrate.probe.wire import SETUP_METHODS, Transcript


class UpdateForUnknownSession(WireRule):
    code = "ACP107"
    name = "update-for-unknown-session"
    summary = "A `session/update` names a session id that was never set up, or was closed."
    basis = "spec"
    spec = "After session setup, the Agent MAY announce commands that were not included in the response, or update the list, via the available_commands_update session notification"
    examples = (
        Example(INIT + NEW + NEW_RESULT + update("s2", "[" + WEB + "]")),
        Example(
            INIT
            + NEW
            + NEW_RESULT
            + '-> {"jsonrpc":"2.0","id":2,"method":"session/close","params":{"sessionId":"s1"}}\n'
            + '<- {"jsonrpc":"2.0","id":2,"result":{}}\n'
            + update("s1", "[" + WEB + "]")
        ),
        Example(INIT + NEW + NEW_RESULT + update("s1", "[" + WEB + "]"), flagged=False),
    )

    @classmethod
    def check(cls, transcript: Transcript) -> Iterator[WireFinding]:
        for frame in transcript.session_updates():
            session_id = frame.params.get("sessionId")
            if not isinstance(session_id, str):
                yield finding(transcript, cls.code, "a session/update without a sessionId", frame)
                continue
            state = None  # what the client knows of the id at this frame: "open", "closed", "pending"
            for step in transcript.steps:
                if step.request.index > frame.index:
                    break
                if step.session_id != session_id or step.failed:
                    if step.method in SETUP_METHODS and step.session_id == session_id and step.response is None:
                        state = "pending"
                    continue
                answered = step.response.index < frame.index
                if step.method in SETUP_METHODS:
                    state = "open" if answered else "pending"
                elif step.method == "session/close" and answered:
                    state = "closed"
            if state in ("open", "pending"):
                continue
            what = "was closed" if state == "closed" else "was never set up"
            yield finding(
                transcript,
                cls.code,
                f"session/update ({_kind(frame)}) for session {session_id}, which {what}",
                frame,
                session_id,
            )


def _kind(frame) -> str:
    update = frame.params.get("update")
    kind = update.get("sessionUpdate") if isinstance(update, dict) else None
    return kind if isinstance(kind, str) else "no sessionUpdate"
