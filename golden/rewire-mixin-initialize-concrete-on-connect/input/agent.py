# Case: initialize (with the list) lives in a mixin; the concrete agent class keeps the
# connection in on_connect: the mixin's initialize makes and binds the advertiser from it
from typing import Any

from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse

COMMANDS = [AvailableCommand(name="web", description="Search")]


class CommandsMixin:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse.create(protocol_version=protocol_version, slash_commands=COMMANDS)


class MixedAgent(CommandsMixin):
    def on_connect(self, conn) -> None:
        self.conn = conn

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s")

    async def load_session(self, cwd: str, session_id: str, **kwargs: Any) -> None:
        return None
