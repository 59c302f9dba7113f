"""ACP105 invalid-command-item: a command in a list is not valid for the negotiated protocol version.

Every item of `availableCommands` is an object with a string `name` and a string
`description`; `input`, when present, is an object: on protocol v1 `{"hint": ...}`,
on v2 `{"type": "text", "hint": ...}` or a custom type starting with `_` (other
types are reserved for future versions). Receivers skip invalid items (v2) or reject
the whole list (the official SDKs' v1 models), so such a command is lost, or takes
the session's other commands with it.

Also reported, as the probe's policy (the spec states no rule on names): a name with
whitespace (a user cannot type it after `/`), a name starting with `/` (clients add
the slash), an empty name. One finding per list and basis, with the number of
invalid items and the first few named.

`input: null` is schema-valid (the official schema's `input` is `anyOf` the input and
`null`): a note, not a finding, once per list (omitting the key is tidier).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from acp_migrate.probe.checks._prelude import INIT, NEW, NEW_RESULT, WEB, update
from acp_migrate.probe.checks.base import NOTE, POLICY, SPEC, Example, WireFinding, WireRule, finding
from acp_migrate.probe.schema import command_problems
from acp_migrate.probe.wire import Transcript


def _name_problems(name: str) -> list[str]:
    if not name.strip():
        return ["has an empty name"]
    found = []
    if any(c.isspace() for c in name):
        found.append("has whitespace in its name (a user cannot type it after /)")
    if name.startswith("/"):
        found.append("starts its name with / (the client adds it)")
    return found


SHOWN = 3  # invalid items named in a finding


class InvalidCommandItem(WireRule):
    code = "ACP105"
    name = "invalid-command-item"
    summary = "A command item lacks a name or description, or has an input of the wrong shape for the protocol version."
    basis = "spec"
    spec = (
        "Custom input types MUST begin with _; unknown non-underscore input types are reserved for future ACP variants."
    )
    examples = (
        Example(INIT + NEW + NEW_RESULT + update("s1", '[{"name":"deploy now","description":"Deploy"}]')),
        Example(INIT + NEW + NEW_RESULT + update("s1", '[{"name":"plan"}]')),
        Example(
            INIT + NEW + NEW_RESULT + update("s1", "[" + WEB + ',{"name":"test","description":"Run the tests"}]'),
            flagged=False,
        ),
        # a note:
        Example(INIT + NEW + NEW_RESULT + update("s1", '[{"name":"plan","description":"Plan","input":null}]')),
    )

    @classmethod
    def check(cls, transcript: Transcript) -> Iterator[WireFinding]:
        version = transcript.protocol_version
        for listed in transcript.command_lists:
            if not isinstance(listed.value, list):
                continue
            invalid: dict[str, list[str]] = {SPEC: [], POLICY: []}  # by basis: the schema's, a name no one types
            nulls = 0
            for number, item in enumerate(listed.value, start=1):
                nulls += isinstance(item, dict) and "input" in item and item["input"] is None
                name = item.get("name") if isinstance(item, dict) else None
                label = f"command {number}" + (f" ({name!r})" if isinstance(name, str) else "")
                for basis, found in (
                    (SPEC, command_problems(item, version)),
                    (POLICY, _name_problems(name) if isinstance(name, str) else []),
                ):
                    if found:
                        invalid[basis].append(f"{label} {'; '.join(found)}")
            total = len(listed.value)
            for basis, items in invalid.items():
                if not items:
                    continue
                more = f"; and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
                kind = f"invalid (protocol v{version})" if basis == SPEC else "with a name no user can type"
                yield finding(
                    transcript,
                    cls.code,
                    f"{len(items)} of {total} command{'' if total == 1 else 's'} for session {listed.session_id} "
                    f"{kind}: {'; '.join(items[:SHOWN])}{more}",
                    listed.frame,
                    basis=basis,
                )
            if nulls:
                yield finding(
                    transcript,
                    cls.code,
                    f"{nulls} of {total} command{'' if total == 1 else 's'} for session {listed.session_id} "
                    "have input: null (schema-valid; omitting the key is tidier)",
                    listed.frame,
                    level=NOTE,
                )
