# Case: AvailableCommand is listed in __all__ (a string), so its import stays after the fix removes its only other use (an empty local's annotation)
from typing import Any

from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse

__all__ = ["AvailableCommand", "ToolboxAgent"]


class ToolboxAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        commands: list[AvailableCommand] = []
        caps = AgentCapabilities(
            load_session=True,
            slash_commands=commands,
        )
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=caps)
