# Case: AvailableCommand is used by the removed local's annotation and by the per-session path, so its import stays
from typing import Any

from acp.schema import AgentCapabilities, AvailableCommand, AvailableCommandsUpdate, InitializeResponse

HELP = AvailableCommand(name="help", description="Show what this agent can do")


class HelpfulAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        commands: list[AvailableCommand] = []
        caps = AgentCapabilities(load_session=True, slash_commands=commands)
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=caps)

    async def _announce(self, session_id: str) -> None:
        update = AvailableCommandsUpdate(session_update="available_commands_update", available_commands=[HELP])
        await self._conn.session_update(session_id=session_id, update=update)
