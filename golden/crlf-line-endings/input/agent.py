# Case: CRLF line endings are preserved by the fix
from typing import Any

from acp.schema import AgentCapabilities, InitializeResponse


class WindowsAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        # Commands come from the plugin directory
        skill_commands = self.load_commands()
        caps = AgentCapabilities(
            load_session=True,
            slash_commands=skill_commands,
        )
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=caps)
