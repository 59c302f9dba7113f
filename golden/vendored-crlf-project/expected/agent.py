# Case: a project written with CRLF line endings: the shim fix adds is written CRLF too,
# like the import it inserts
from typing import Any

from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse

from acp_command_advertiser import CommandAdvertiser


class TinyAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn
        self.command_advertiser = CommandAdvertiser().bind(conn)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.advertise(self.commands)
        return InitializeResponse.create(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s1")

    def commands(self) -> list:
        return [AvailableCommand(name="web", description="Search")]
