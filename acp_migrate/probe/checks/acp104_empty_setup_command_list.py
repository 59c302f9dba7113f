"""ACP104 empty-setup-command-list: a setup result carries `availableCommands: []`.

The spec: "Empty lists are omitted when serializing setup responses." Omission and
`[]` mean the same to a reader, but a setup result with an empty list tells a client
that relies on the serialisation rule the agent did not follow it, and commonly
betrays a default (`Field(default_factory=list)`) that also hides "this agent
forgot the commands" in a diff. Omit the field when there are no commands.
"""

from __future__ import annotations

from collections.abc import Iterator

from acp_migrate.probe.checks._prelude import INIT, NEW, NEW_RESULT
from acp_migrate.probe.checks.base import Example, WireFinding, WireRule, finding
from acp_migrate.probe.wire import Transcript


class EmptySetupCommandList(WireRule):
    code = "ACP104"
    name = "empty-setup-command-list"
    summary = "A session setup result serialises an empty `availableCommands` list instead of omitting it."
    basis = "spec"
    spec = "Empty lists are omitted when serializing setup responses."
    examples = (
        Example(INIT + NEW + '<- {"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1","availableCommands":[]}}\n'),
        Example(INIT + NEW + NEW_RESULT, flagged=False),
    )

    @classmethod
    def check(cls, transcript: Transcript) -> Iterator[WireFinding]:
        for listed in transcript.command_lists:
            if listed.in_setup_result and listed.value == []:
                step = transcript.step_of(listed.frame)
                yield finding(
                    transcript,
                    cls.code,
                    f"the {step.method if step else 'setup'} result for session {listed.session_id} "
                    "serialises availableCommands: [] (omit an empty list)",
                    listed.frame,
                )
