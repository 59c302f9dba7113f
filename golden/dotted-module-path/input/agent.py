# Case: plain module import (import acp.schema), call through the dotted path acp.schema.AgentCapabilities
from typing import Any

import acp.schema


class DottedAgent:
    def __init__(self, commands: list[acp.schema.AvailableCommand]) -> None:
        self._commands = commands

    async def initialize(self, protocol_version: int, **kwargs: Any) -> acp.schema.InitializeResponse:
        caps = acp.schema.AgentCapabilities(slash_commands=[], load_session=True)
        return acp.schema.InitializeResponse(protocol_version=protocol_version, agent_capabilities=caps)
