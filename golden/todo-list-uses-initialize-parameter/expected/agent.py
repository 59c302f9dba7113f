# Case: the list depends on initialize's own arguments: it cannot move; the keyword and the local feeding it stay, with a TODO above them
from typing import Any

from acp.schema import InitializeResponse, NewSessionResponse


class ClientAwareAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, client_capabilities: Any = None, **kwargs: Any) -> InitializeResponse:
        commands = self.commands_for(client_capabilities)
        # acp-migrate: TODO: advertise `commands` per session (acp-migrate rules ACP005)
        return InitializeResponse.create(protocol_version=protocol_version, slash_commands=commands)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s")

    def commands_for(self, capabilities: Any) -> list:
        return []
