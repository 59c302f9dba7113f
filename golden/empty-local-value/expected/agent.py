# Case: a local assigned only [] feeds slash_commands=: local and keyword go, no ACP005
from typing import Any

from acp.schema import InitializeResponse


class MinimalAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        agent_name = "minimal"
        return InitializeResponse.create(
            protocol_version=protocol_version,
            name=agent_name,
            version="0.1.0",
        )
