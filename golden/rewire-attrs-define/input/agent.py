# Case: an attrs class (slots by default) holding the connection in a field: the advertiser is
# declared with `attrs.field(factory=...)`, bound from the field first thing in initialize
from typing import Any

import attrs
from acp import AgentSideConnection
from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse


@attrs.define
class AttrsAgent:
    conn: AgentSideConnection
    sessions: dict = attrs.field(factory=dict)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse.create(protocol_version=protocol_version, slash_commands=self.commands())

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        self.sessions[cwd] = True
        return NewSessionResponse(session_id=cwd)

    def commands(self) -> list:
        return [AvailableCommand(name="web", description="Search")]
