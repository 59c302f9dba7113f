# Case: an agent class and its subclass in one module: both rewired, one advertiser bound once, one import
from typing import Any

from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


class ChatAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn
        self.command_advertiser = CommandAdvertiser().bind(conn)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.advertise(self.chat_commands)
        return InitializeResponse.create(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="chat")

    def chat_commands(self) -> list:
        return [AvailableCommand(name="web", description="Search")]


class CodeAgent(ChatAgent):
    def on_connect(self, conn) -> None:
        super().on_connect(conn)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.advertise(self.code_commands)
        return InitializeResponse.create(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="code")

    def code_commands(self) -> list:
        return [AvailableCommand(name="test", description="Run the tests")]
