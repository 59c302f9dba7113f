# Case: the agent inherits its setup handlers from pool/base.py (read by the codemod) and from a
# protocol whose stubs do not count: each inherited handler gets an override that attaches the list
from __future__ import annotations

from typing import Any, Protocol

from acp.schema import AvailableCommand, InitializeResponse
from acp_migrate.runtime import CommandAdvertiser

from .base import SessionHandlers


class AgentProtocol(Protocol):
    async def resume_session(self, params: Any) -> Any: ...


class SkillAgent(SessionHandlers, AgentProtocol):
    def __init__(self, conn: Any) -> None:
        super().__init__(conn)
        self.skills: list[Any] = [AvailableCommand(name="web", description="Search")]
        self.command_advertiser = CommandAdvertiser()

    async def initialize(self, params: Any) -> InitializeResponse:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(lambda: self.skills)
        return InitializeResponse.create(protocol_version=1)
