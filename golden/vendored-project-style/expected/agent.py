# Case: a project formatted at 79 columns with single quotes: the vendored shim
# and the edited agent follow both.
from typing import Any

from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse

from acp_command_advertiser import CommandAdvertiser

COMMANDS = [AvailableCommand(name='web', description='Search the web')]


class QuotedAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn
        self.command_advertiser = CommandAdvertiser().bind(conn)

    async def initialize(
        self, protocol_version: int, **kwargs: Any
    ) -> InitializeResponse:
        self.command_advertiser.advertise(COMMANDS)
        return InitializeResponse.create(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id='s1')
