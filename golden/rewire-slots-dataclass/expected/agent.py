# Case: a slots dataclass cannot take new attributes: the advertiser becomes a declared field
# (`field` is added to the dataclasses import), bound from the connection field in initialize
from dataclasses import dataclass, field
from typing import Any

from acp import AgentSideConnection
from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


@dataclass(slots=True)
class SlotsAgent:
    conn: AgentSideConnection
    name: str = "slots"
    command_advertiser: CommandAdvertiser = field(
        default_factory=CommandAdvertiser, init=False, repr=False
    )

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(self.commands)
        return InitializeResponse.create(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=cwd)

    def commands(self) -> list:
        return [AvailableCommand(name="web", description="Search")]
