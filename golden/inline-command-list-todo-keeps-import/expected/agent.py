# Case: an inline command list in a class without setup handlers: a TODO, and AvailableCommand stays imported for it
from typing import Any

from acp.schema import (
    AgentCapabilities,
    AvailableCommand,
    Implementation,
    InitializeResponse,
)


class DevAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        # acp-migrate: TODO: advertise `[ AvailableCommand(name="web", description="Search the web"), AvailableCommand(…` per session; not moved automatically: class `DevAgent` has no session setup handler
        return InitializeResponse(
            protocol_version=protocol_version,
            agent_capabilities=AgentCapabilities(
                load_session=True,
            ),
            agent_info=Implementation(name="dev-agent", version="0.9.0"),
        )
