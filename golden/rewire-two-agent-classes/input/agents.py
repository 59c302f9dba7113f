# Case: an agent class and its subclass in one module: both rewired, one advertiser bound once, one import
from typing import Any

from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse


class ChatAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse.create(protocol_version=protocol_version, slash_commands=self.chat_commands())

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="chat")

    def chat_commands(self) -> list:
        return [AvailableCommand(name="web", description="Search")]


class CodeAgent(ChatAgent):
    def on_connect(self, conn) -> None:
        super().on_connect(conn)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse.create(protocol_version=protocol_version, slash_commands=self.code_commands())

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="code")

    def code_commands(self) -> list:
        return [AvailableCommand(name="test", description="Run the tests")]
