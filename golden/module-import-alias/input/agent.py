# Case: module imported under an alias (import acp.schema as s), calls through s.AgentCapabilities
from typing import Any

import acp.schema as s


class ModuleAliasAgent:
    def __init__(self, commands: list[s.AvailableCommand]) -> None:
        self.commands = commands

    async def initialize(self, protocol_version: int, **kwargs: Any) -> s.InitializeResponse:
        return s.InitializeResponse(
            protocol_version=protocol_version,
            agent_capabilities=s.AgentCapabilities(
                load_session=True,
                slash_commands=[],
            ),
        )
