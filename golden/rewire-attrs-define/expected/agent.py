# Case: an attrs class (slots by default) holding the connection in a field: the advertiser is
# declared with `attrs.field(factory=...)`, bound from the field first thing in initialize
from typing import Any

import attrs
from acp import AgentSideConnection
from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


@attrs.define
class AttrsAgent:
    conn: AgentSideConnection
    sessions: dict = attrs.field(factory=dict)
    command_advertiser: CommandAdvertiser = attrs.field(
        factory=CommandAdvertiser, init=False, repr=False
    )

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(self.commands)
        return InitializeResponse.create(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        self.sessions[cwd] = True
        return NewSessionResponse(session_id=cwd)

    def commands(self) -> list:
        return [AvailableCommand(name="web", description="Search")]
