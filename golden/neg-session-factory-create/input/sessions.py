# Case (negative): a different .create(slash_commands=...) classmethod, on SessionFactory
from __future__ import annotations

from acp.schema import AvailableCommand


class ACPSession:
    def __init__(self, session_id: str, commands: list[AvailableCommand]) -> None:
        self.session_id = session_id
        self.commands = commands


class SessionFactory:
    @classmethod
    def create(cls, session_id: str, *, slash_commands: list[AvailableCommand] | None = None) -> ACPSession:
        return ACPSession(session_id, commands=list(slash_commands or []))


def open_session(session_id: str, commands: list[AvailableCommand]) -> ACPSession:
    return SessionFactory.create(session_id, slash_commands=commands)
