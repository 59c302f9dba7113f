# Part of the case: an agent whose getter gives initialize its commands
from typing import Any

from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse, NewSessionResponse


class NotesAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn

    def get_commands(self) -> list[AvailableCommand]:
        return [AvailableCommand(name="web", description="Search")]

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(
            protocol_version=protocol_version,
            agent_capabilities=AgentCapabilities(load_session=True, slash_commands=self.get_commands()),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s")
