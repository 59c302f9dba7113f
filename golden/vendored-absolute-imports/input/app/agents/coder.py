# Case: vendored shim in a package whose modules import their own package absolutely
# (run as `python -m app.agents.coder`): the shim is imported by the same absolute path,
# in the first-party section, not relatively.
from typing import Any

from acp.schema import InitializeResponse, NewSessionResponse

from app.agents.tools import COMMANDS


class CoderAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse.create(protocol_version=protocol_version, slash_commands=COMMANDS)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s1")
