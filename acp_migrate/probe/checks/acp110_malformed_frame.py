"""ACP110 malformed-frame: the agent wrote a line on stdout that is not a JSON-RPC 2.0 message.

ACP over stdio is newline-delimited JSON-RPC: every line the agent writes on stdout
is one message. A log line, a banner, a pretty-printed object split over lines or a
message without `"jsonrpc": "2.0"` makes strict clients close the connection, and
lenient ones skip it (and whatever it carried). Log to stderr instead.
"""

from __future__ import annotations

from collections.abc import Iterator

from acp_migrate.probe.checks._prelude import INIT, NEW, NEW_RESULT
from acp_migrate.probe.checks.base import Example, WireFinding, WireRule, finding
from acp_migrate.probe.wire import Transcript


class MalformedFrame(WireRule):
    code = "ACP110"
    name = "malformed-frame"
    summary = "A line the agent wrote on stdout is not a JSON-RPC 2.0 message."
    basis = "spec"
    spec = "ACP transport (stdio): each message is one line of JSON-RPC 2.0 on stdout; nothing else is written there."
    examples = (
        Example(INIT + "<- Listening on stdio...\n" + NEW + NEW_RESULT),
        Example(INIT + NEW + NEW_RESULT, flagged=False),
    )

    @classmethod
    def check(cls, transcript: Transcript) -> Iterator[WireFinding]:
        for frame in transcript.agent_frames():
            problem = frame.error
            if problem is None:
                message = frame.message
                if message.get("jsonrpc") != "2.0":
                    problem = 'no "jsonrpc": "2.0"'
                elif not (frame.is_request or frame.is_notification or frame.is_response):
                    problem = "neither a request, a notification nor a response"
            if problem is not None:
                shown = frame.raw if len(frame.raw) <= 60 else frame.raw[:57] + "..."
                yield finding(transcript, cls.code, f"line {shown!r} is not a JSON-RPC message: {problem}", frame)
