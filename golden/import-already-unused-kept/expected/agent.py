# Case: AvailableCommand made unused is removed; SessionMode and os, unused before the fix, are not touched
import os
from typing import Any

from acp.schema import AgentCapabilities, InitializeResponse, SessionMode


class LegacyAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(
            protocol_version=protocol_version,
            agent_capabilities=AgentCapabilities(
                load_session=False,
            ),
        )
