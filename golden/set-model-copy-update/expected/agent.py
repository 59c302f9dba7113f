# Case: caps.model_copy(update={"slash_commands": ...}): the entry goes (the update= too when it is left empty), the lists move
from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser

BASE = AgentCapabilities(load_session=True)


class CopyAgent:
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
        caps = BASE.model_copy()
        return InitializeResponse(protocol_version=PROTOCOL_VERSION, agent_capabilities=caps)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="copy")


class PartialCopyAgent:
    def __init__(self, base: AgentCapabilities) -> None:
        self.conn = None
        self.base = base
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(
            lambda: [AvailableCommand(name="test", description="Run tests")]
        )
        response = InitializeResponse(protocol_version=PROTOCOL_VERSION)
        response.agent_capabilities = response.agent_capabilities.model_copy(
            update={"load_session": True},
            deep=True,
        )
        return response

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="partial")
