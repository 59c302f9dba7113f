# Case: setup handlers but no on_connect(conn): nowhere to bind the advertiser; a TODO stays behind
from typing import Any

from acp.schema import InitializeResponse, NewSessionResponse


class UnwiredAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        # acp-migrate: TODO: advertise `self.commands()` per session; not moved automatically: class `UnwiredAgent` has no `__init__` or `on_connect(conn)` to create a CommandAdvertiser in
        return InitializeResponse.create(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s")

    def commands(self) -> list:
        return []
