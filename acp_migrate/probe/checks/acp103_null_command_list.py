"""ACP103 null-command-list: `availableCommands` is `null` (or not an array).

`null` is not a valid outbound value: the official SDKs' clients reject the whole
notification (so the session keeps its previous list), and tolerant v2 receivers
treat it as omission, which in an update is not "no commands". To clear the list
send `[]` in an `available_commands_update`; in a setup result omit the field.
A string, number or object in its place is reported too.
"""

from __future__ import annotations

from collections.abc import Iterator

from acp_migrate.probe.checks._prelude import INIT, NEW, NEW_RESULT, update
from acp_migrate.probe.checks.base import Example, WireFinding, WireRule, finding
from acp_migrate.probe.wire import Transcript


class NullCommandList(WireRule):
    code = "ACP103"
    name = "null-command-list"
    summary = "`availableCommands` is `null` or not an array, in a setup result or an update."
    basis = "spec"
    spec = "null is not a valid outbound value for this field."
    examples = (
        Example(INIT + NEW + NEW_RESULT + update("s1", "null")),
        Example(INIT + NEW + NEW_RESULT + update("s1", "[]"), flagged=False),
    )

    @classmethod
    def check(cls, transcript: Transcript) -> Iterator[WireFinding]:
        for listed in transcript.command_lists:
            if isinstance(listed.value, list):
                continue
            where = "a setup result" if listed.in_setup_result else "an available_commands_update"
            shown = "null" if listed.value is None else f"a JSON {_kind(listed.value)}"
            yield finding(
                transcript,
                cls.code,
                f"availableCommands is {shown} in {where} for session {listed.session_id}: "
                "send [] to clear the list (omit it in a setup result)",
                listed.frame,
            )


def _kind(value) -> str:
    return {dict: "object", str: "string", bool: "boolean", int: "number", float: "number"}.get(type(value), "value")
