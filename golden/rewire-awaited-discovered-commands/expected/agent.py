# Case: the list is awaited in initialize (`await self._discover_commands()`): the advertiser
# is given the value initialize awaits, where it awaited it
from typing import Any

from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


class DiscoveringAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn
        self.command_advertiser = CommandAdvertiser().bind(conn)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.advertise(await self._discover_commands())
        return InitializeResponse.create(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s")

    async def load_session(self, cwd: str, session_id: str, **kwargs: Any) -> None:
        return None

    async def _discover_commands(self) -> list[AvailableCommand]:
        return [AvailableCommand(name="web", description="Search")]
