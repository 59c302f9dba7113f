"""The application's agent: its own load, no super()."""

from __future__ import annotations

from typing import Any

from acp.schema import LoadSessionResponse

from framework import FrameworkAgent


class AppAgent(FrameworkAgent):
    async def load_session(self, cwd: str, session_id: str, **kwargs: Any) -> LoadSessionResponse:
        self.restored = session_id
        return LoadSessionResponse()
