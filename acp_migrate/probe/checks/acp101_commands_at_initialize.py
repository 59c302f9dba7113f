"""ACP101 commands-at-initialize: the `initialize` result advertises slash commands.

Commands are per session in ACP: a client learns them from a session setup result
(`availableCommands`) or an `available_commands_update` after it. A list in the
`initialize` result (`agentCapabilities.slashCommands`, the pre-RFC-0032 field, or
any `slashCommands` / `availableCommands` / `commands` list elsewhere in it, `_meta`
included) is read by no spec client: the commands are invisible, or shown for
every session alike.

This is what `acp-migrate check` reports in the source as ACP001/ACP002; the probe
sees it on the wire, whatever language the agent is written in. Fix: drop the field
from the capabilities and advertise the list to each session after its setup response
(in Python, `acp_migrate.runtime.CommandAdvertiser`; `acp-migrate fix` does it).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from acp_migrate.probe.checks._prelude import INIT, NEW, NEW_RESULT, WEB, update
from acp_migrate.probe.checks.base import Example, WireFinding, WireRule, finding
from acp_migrate.probe.wire import Transcript, command_names

LIST_KEYS = ("slashCommands", "slash_commands", "availableCommands", "available_commands", "commands")


def _lists(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else key
            if key in LIST_KEYS and (key != "commands" or isinstance(item, list)):
                yield where, item
            else:
                yield from _lists(item, where)


class CommandsAtInitialize(WireRule):
    code = "ACP101"
    name = "commands-at-initialize"
    summary = "The `initialize` result advertises slash commands (capabilities or `_meta`)."
    basis = "spec"
    spec = "After session setup, the Agent MAY announce commands that were not included in the response, or update the list, via the available_commands_update session notification"
    examples = (
        Example(
            '-> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}\n'
            '<- {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,'
            '"agentCapabilities":{"slashCommands":[' + WEB + "]}}}\n" + NEW + NEW_RESULT
        ),
        Example(INIT + NEW + NEW_RESULT + update("s1", "[" + WEB + "]"), flagged=False),
    )

    @classmethod
    def check(cls, transcript: Transcript) -> Iterator[WireFinding]:
        init = transcript.initialize
        if init is None or init.response is None or not isinstance(init.response.result, dict):
            return
        for path, value in _lists(init.response.result, ""):
            names = command_names(value)
            shown = f" ({', '.join(names)})" if names else ""
            yield finding(
                transcript,
                cls.code,
                f"`{path}` advertises commands at initialize{shown}: clients read commands per session, "
                "from a setup result or an available_commands_update",
                init.response,
            )
