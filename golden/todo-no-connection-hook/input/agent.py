# Case: setup handlers but no __init__ or on_connect(conn): nowhere to create and bind the advertiser; the keyword stays, with a TODO above it
from typing import Any

from acp.schema import InitializeResponse, NewSessionResponse


class UnwiredAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse.create(protocol_version=protocol_version, slash_commands=self.commands())

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s")

    def commands(self) -> list:
        return []
