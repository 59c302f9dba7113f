# Case: the list is a comprehension whose loop variable `c` is also a local of initialize: the
# comprehension's own variable does not tie it to initialize, so it moves
from typing import Any

from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


class ComprehensionAgent:
    def __init__(self) -> None:
        self.names = ["web", "test"]
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn: Any) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(
            lambda: [AvailableCommand(name=c, description=c) for c in self.names]
        )
        for c in self.names:
            assert c
        return InitializeResponse.create(
            protocol_version=protocol_version,
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=cwd)
