# Case: the setup handlers live in a base class of another module (request objects and keywords)
from __future__ import annotations

from typing import Any

from acp.schema import ForkSessionResponse, LoadSessionResponse, NewSessionResponse


class SessionHandlers:
    """Session setup shared by every agent of the pool."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def new_session(self, params: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=params.cwd)

    async def load_session(self, params: Any) -> LoadSessionResponse:
        return LoadSessionResponse()

    def fork_session(self, cwd: str, session_id: str, *, mcp_servers: list | None = None, **kwargs: Any) -> ForkSessionResponse:
        return ForkSessionResponse(session_id=session_id + "-fork")
