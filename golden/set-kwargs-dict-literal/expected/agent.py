# Case: the field passed through a ** dict literal: its entry goes (the whole ** argument when nothing else is left)
from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


class SpreadAgent:
    def __init__(self) -> None:
        self.conn = None
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn) -> None:
        self.conn = conn

    def skills(self) -> list[AvailableCommand]:
        return [AvailableCommand(name="web", description="Search the web")]

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(self.skills)
        caps = AgentCapabilities(load_session=True)
        return InitializeResponse(protocol_version=PROTOCOL_VERSION, agent_capabilities=caps)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="spread")


class MixedSpreadAgent:
    def __init__(self) -> None:
        self.conn = None
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(
            lambda: [AvailableCommand(name="test", description="Run the tests")]
        )
        return InitializeResponse.create(
            protocol_version=PROTOCOL_VERSION,
            **{
                "load_session": True,
            },
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="mixed")
