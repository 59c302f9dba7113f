# Case: CRLF line endings are preserved by the fix, in what it removes and in the rewire's new lines
from typing import Any

from acp.schema import AgentCapabilities, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


class WindowsAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn
        self.command_advertiser = CommandAdvertiser().bind(conn)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.advertise(self.load_commands)
        caps = AgentCapabilities(
            load_session=True,
        )
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=caps)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s1")
