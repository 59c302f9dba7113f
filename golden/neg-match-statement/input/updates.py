# Case (negative): match statements and the soft keywords match, case and type as names; commands arrive per session, nothing to change
"""Client side: dispatch `session/update` notifications with structural pattern matching.

Servers migrated off the initialize-time slash_commands capability send
`available_commands_update` per session; this module only reads them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from acp.schema import AvailableCommand, AvailableCommandsUpdate, SessionNotification

_COMMAND = re.compile(r"^/(?P<name>[a-z][a-z0-9_-]*)(?:\s+(?P<rest>.*))?$")


@dataclass
class Point:
    x: int
    y: int


class SessionCommands:
    def __init__(self) -> None:
        self.by_session: dict[str, list[AvailableCommand]] = {}

    def handle(self, notification: SessionNotification) -> None:
        match notification.update:
            case AvailableCommandsUpdate(available_commands=commands):
                self.by_session[notification.session_id] = list(commands)
            case {"sessionUpdate": "available_commands_update", "availableCommands": [*commands]}:
                self.by_session[notification.session_id] = [AvailableCommand.model_validate(c) for c in commands]
            case {"sessionUpdate": str(kind)} if kind.endswith("_chunk"):
                pass
            case _:
                pass

    def names(self, session_id: str) -> list[str]:
        return [command.name for command in self.by_session.get(session_id, [])]


def parse(text: str) -> tuple[str, str] | None:
    match = _COMMAND.match(text)  # `match` as a name
    if match is None:
        return None
    case, type = match.group("name"), match.group("rest") or ""  # so are `case` and `type`
    return case, type


def describe(value: Any) -> str:
    match value:
        case Point(x=0, y=0):
            return "origin"
        case Point(x=x, y=0) | Point(x=0, y=x):
            return f"on an axis at {x}"
        case [Point() as first, *rest]:
            return f"{first} and {len(rest)} more"
        case {"name": str(name), **extra} if not extra:
            return name
        case int() | float() as number if number < 0:
            return "negative"
        case str() | bytes():
            return "text"
        case None:
            return "nothing"
        case _:
            return type(value).__name__


match parse("/status now"):
    case ("status", rest):
        DEFAULT_STATUS = rest
    case _:
        DEFAULT_STATUS = ""
