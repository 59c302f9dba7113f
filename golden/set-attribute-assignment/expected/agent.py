# Case: caps.slash_commands = ... on capabilities (a local, a response's field): the assignment goes and its list moves, not reported as a read
from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser

SKILLS = [AvailableCommand(name="web", description="Search the web")]


class LocalCapsAgent:
    def __init__(self) -> None:
        self.conn = None
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn) -> None:
        self.conn = conn

    def skills(self) -> list[AvailableCommand]:
        return list(SKILLS)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(self.skills)
        caps = AgentCapabilities(load_session=True)
        return InitializeResponse(protocol_version=PROTOCOL_VERSION, agent_capabilities=caps)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="local")


class ResponseFieldAgent:
    def __init__(self) -> None:
        self.conn = None
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(SKILLS)
        response = InitializeResponse(protocol_version=PROTOCOL_VERSION, agent_capabilities=AgentCapabilities())
        return response

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="response")
