# Case: AvailableCommand is listed in __all__ (a string), so its import stays after the fix
from typing import Any

from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse

__all__ = ["AvailableCommand", "ToolboxAgent"]


class ToolboxAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        caps = AgentCapabilities(
            load_session=True,
            slash_commands=[AvailableCommand(name="tools", description="List available tools")],
        )
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=caps)
