# Case: the list is awaited but a setup handler is synchronous: moving it would not compile; the keyword stays where it is, with a TODO above it
from typing import Any

from acp.schema import InitializeResponse, NewSessionResponse


class SyncHandlerAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse.create(protocol_version=protocol_version, slash_commands=await self.load())

    def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s")

    async def load(self) -> list:
        return []
