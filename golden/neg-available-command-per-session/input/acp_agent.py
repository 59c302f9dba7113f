# Case (negative): AvailableCommand imported and used only for the per-session path; initialize is compliant
from typing import Any

from acp.schema import (
    AgentCapabilities,
    AvailableCommand,
    AvailableCommandsUpdate,
    InitializeResponse,
    NewSessionResponse,
)


class CompliantAgent:
    def session_commands(self, session_id: str) -> list[AvailableCommand]:
        return [AvailableCommand(name="web", description="Search the web")]

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=AgentCapabilities(load_session=True))

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        session_id = self.sessions.open(cwd)
        update = AvailableCommandsUpdate(
            session_update="available_commands_update",
            available_commands=self.session_commands(session_id),
        )
        self.tasks.create_task(self._conn.session_update(session_id=session_id, update=update))
        return NewSessionResponse(session_id=session_id)
