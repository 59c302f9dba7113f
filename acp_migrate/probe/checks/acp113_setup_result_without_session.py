"""ACP113 setup-result-without-session: a `session/new` or `session/fork` result that is `null`, or carries no session id.

The result of a setup that creates a session carries its `sessionId` (the schema's
`NewSessionResponse` and `ForkSessionResponse` require it): the client addresses the
session by it, and without it there is no session at all. The SDK 0.7 "silent break"
answers `session/new` with `null`: an `acp.Agent` subclass whose handlers keep the old
camelCase names (`newSession(self, params)`) inherits the protocol stub `new_session`,
which the router calls instead, and no error appears anywhere.

Fix: return the session's id from the handler the SDK calls (for a Python agent on
the SDK 0.7 or later: `new_session`, `fork_session`, snake_case, keyword arguments).
"""

from __future__ import annotations

from collections.abc import Iterator

from acp_migrate.probe.checks._prelude import INIT, NEW, NEW_RESULT
from acp_migrate.probe.checks.base import Example, WireFinding, WireRule, finding
from acp_migrate.probe.schema import lacks_session
from acp_migrate.probe.wire import Transcript


class SetupResultWithoutSession(WireRule):
    code = "ACP113"
    name = "setup-result-without-session"
    summary = "A `session/new` or `session/fork` result is `null` or carries no `sessionId`."
    basis = "spec"
    spec = "ACP schema: `NewSessionResponse.sessionId` and `ForkSessionResponse.sessionId` are required."
    examples = (
        Example(INIT + NEW + '<- {"jsonrpc":"2.0","id":1,"result":null}\n'),
        Example(INIT + NEW + '<- {"jsonrpc":"2.0","id":1,"result":{"modes":null}}\n'),
        Example(INIT + NEW + NEW_RESULT, flagged=False),
    )

    @classmethod
    def check(cls, transcript: Transcript) -> Iterator[WireFinding]:
        for step in transcript.setup_steps:
            if step.failed or not lacks_session(step.method, step.response.result):
                continue
            result = step.response.result
            what = "null" if result is None else "without a string sessionId"
            yield finding(
                transcript,
                cls.code,
                f"{step.method} answered with a result {what}: the client has no session to address "
                "(on the Python SDK 0.7+, a camelCase handler such as newSession is never called)",
                step.response,
            )
