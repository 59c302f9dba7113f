# Case: the list depends on initialize's own arguments and is built in a loop: its value,
# taken where the list was, is given to the advertiser there (legacy servers computed it
# once per connection, at initialize, too)
from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


class ClientAwareAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn
        self.command_advertiser = CommandAdvertiser().bind(conn)

    async def initialize(self, protocol_version: int, client_capabilities: Any = None, **kwargs: Any) -> InitializeResponse:
        commands = []
        for name in self.command_names(client_capabilities):
            commands.append(AvailableCommand(name=name, description=f"Run {name}"))
        self.command_advertiser.advertise(commands)
        return InitializeResponse.create(protocol_version=min(protocol_version, PROTOCOL_VERSION))

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s")

    def command_names(self, capabilities: Any) -> list[str]:
        names = ["web"]
        if capabilities is not None and getattr(capabilities, "terminal", False):
            names.append("test")
        return names
