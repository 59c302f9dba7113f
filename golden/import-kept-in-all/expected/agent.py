# Case: AvailableCommand is listed in __all__ (a string), so its import stays after the fix
from typing import Any

from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse

__all__ = ["AvailableCommand", "ToolboxAgent"]


class ToolboxAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        # acp-migrate: TODO: advertise `[AvailableCommand(name="tools", description="List available tools")]` per session; not moved automatically: class `ToolboxAgent` has no session setup handler
        caps = AgentCapabilities(
            load_session=True,
        )
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=caps)
