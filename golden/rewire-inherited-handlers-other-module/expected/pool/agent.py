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
        return InitializeResponse.create(protocol_version=1)

    async def new_session(self, params):
        return self.command_advertiser.attach(
            await super().new_session(params),
            always=self.skills,
        )

    async def load_session(self, params):
        return self.command_advertiser.attach(
            await super().load_session(params),
            session_id=params.session_id,
            always=self.skills,
        )

    def fork_session(self, cwd, session_id, *, mcp_servers=None, **kwargs):
        return self.command_advertiser.attach(
            super().fork_session(cwd, session_id, mcp_servers=mcp_servers, **kwargs),
            always=self.skills,
        )
