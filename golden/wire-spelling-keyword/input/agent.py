# Case: wire spelling slashCommands= used as a keyword (populate by alias) in AgentCapabilities(...)
from typing import Any

from acp.schema import AgentCapabilities, InitializeResponse


class CommandAgent:
    def __init__(self, commands: list) -> None:
        self.commands = commands

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        capabilities = AgentCapabilities(
            loadSession=True,
            slashCommands=[],
        )
        return InitializeResponse(protocolVersion=protocol_version, agentCapabilities=capabilities)
