# Case: an inline command list in a class without setup handlers: the list stays where it is, with a TODO above it, and so does the AvailableCommand import
from typing import Any

from acp.schema import (
    AgentCapabilities,
    AvailableCommand,
    Implementation,
    InitializeResponse,
)


class DevAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(
            protocol_version=protocol_version,
            agent_capabilities=AgentCapabilities(
                load_session=True,
                slash_commands=[
                    AvailableCommand(name="web", description="Search the web"),
                    AvailableCommand(name="test", description="Run the test suite"),
                ],
            ),
            agent_info=Implementation(name="dev-agent", version="0.9.0"),
        )
