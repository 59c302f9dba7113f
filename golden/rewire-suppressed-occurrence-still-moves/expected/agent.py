# Case: a suppressed initialize keyword does not rewire the class; the other path's list still moves
from typing import Any

from acp import Client
from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


class SkillAgent:
    def on_connect(self, conn: Client) -> None:
        self._conn = conn
        self.command_advertiser = CommandAdvertiser().bind(conn)

    def commands(self) -> list[AvailableCommand]:
        return [AvailableCommand(name="web", description="Search the web")]

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.advertise(self.commands)
        if protocol_version < 1:
            return InitializeResponse.create(protocol_version=0, slash_commands=self.commands())  # acp-migrate: ignore[ACP001]
        return InitializeResponse.create(protocol_version=1)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s")
