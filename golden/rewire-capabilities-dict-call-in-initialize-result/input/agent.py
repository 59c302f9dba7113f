# Case: the capabilities given to InitializeResponse as `dict(...)` (pydantic validates
# it into AgentCapabilities): the key goes, its commands move to the advertiser
from typing import Any

from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse

COMMANDS = [AvailableCommand(name="web", description="Search")]


class DictAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(
            protocol_version=protocol_version,
            agent_capabilities=dict(loadSession=True, slashCommands=COMMANDS),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s1")

    async def load_session(self, cwd: str, session_id: str, **kwargs: Any) -> None:
        return None
