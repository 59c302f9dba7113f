# Case: a project formatted at 79 columns with single quotes: the vendored shim
# and the edited agent follow both.
from typing import Any

from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse

COMMANDS = [AvailableCommand(name='web', description='Search the web')]


class QuotedAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(
        self, protocol_version: int, **kwargs: Any
    ) -> InitializeResponse:
        return InitializeResponse.create(
            protocol_version=protocol_version, slash_commands=COMMANDS
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id='s1')
