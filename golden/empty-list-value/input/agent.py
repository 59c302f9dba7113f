# Case: provably empty value slash_commands=[] as the only keyword: removed, no ACP005
from typing import Any

from acp.schema import AgentCapabilities, InitializeResponse


class QuietAgent:
    """Advertises its commands per session already; initialize sends an empty list."""

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(
            protocol_version=protocol_version,
            agent_capabilities=AgentCapabilities(slash_commands=[]),
        )
