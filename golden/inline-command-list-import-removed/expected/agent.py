# Case: multi-line inline command list as the value; AvailableCommand becomes unused and leaves the import
from typing import Any

from acp.schema import (
    AgentCapabilities,
    Implementation,
    InitializeResponse,
)


class DevAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(
            protocol_version=protocol_version,
            agent_capabilities=AgentCapabilities(
                load_session=True,
            ),
            agent_info=Implementation(name="dev-agent", version="0.9.0"),
        )
