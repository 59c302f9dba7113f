# Case: vendored shim in a package whose modules import their own package absolutely
# (run as `python -m app.agents.coder`): the shim is imported by the same absolute path,
# in the first-party section, not relatively.
from typing import Any

from acp.schema import InitializeResponse, NewSessionResponse

from app.agents.acp_command_advertiser import CommandAdvertiser
from app.agents.tools import COMMANDS


class CoderAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn
        self.command_advertiser = CommandAdvertiser().bind(conn)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.advertise(COMMANDS)
        return InitializeResponse.create(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s1")
