# Case: initialize (with the list) lives in a mixin; the concrete agent class keeps the
# connection in on_connect: the mixin's initialize makes and binds the advertiser from it
from typing import Any

from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser

COMMANDS = [AvailableCommand(name="web", description="Search")]


class CommandsMixin:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser = CommandAdvertiser().bind(self.conn)
        self.command_advertiser.advertise(COMMANDS)
        return InitializeResponse.create(protocol_version=protocol_version)


class MixedAgent(CommandsMixin):
    def on_connect(self, conn) -> None:
        self.conn = conn

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s")

    async def load_session(self, cwd: str, session_id: str, **kwargs: Any) -> None:
        return None
