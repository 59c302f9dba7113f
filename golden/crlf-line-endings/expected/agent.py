# Case: CRLF line endings are preserved by the fix
from typing import Any

from acp.schema import AgentCapabilities, InitializeResponse


class WindowsAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        # acp-migrate: TODO: advertise `self.load_commands()` per session; not moved automatically: class `WindowsAgent` has no session setup handler
        caps = AgentCapabilities(
            load_session=True,
        )
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=caps)
