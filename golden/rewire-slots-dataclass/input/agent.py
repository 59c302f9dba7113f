# Case: a slots dataclass cannot take new attributes: the advertiser becomes a declared field
# (`field` is added to the dataclasses import), bound from the connection field in initialize
from dataclasses import dataclass
from typing import Any

from acp import AgentSideConnection
from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse


@dataclass(slots=True)
class SlotsAgent:
    conn: AgentSideConnection
    name: str = "slots"

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse.create(protocol_version=protocol_version, slash_commands=self.commands())

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=cwd)

    def commands(self) -> list:
        return [AvailableCommand(name="web", description="Search")]
