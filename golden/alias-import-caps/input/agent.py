# Case: class imported under an alias (from acp.schema import AgentCapabilities as Caps)
from typing import Any

from acp.schema import AgentCapabilities as Caps
from acp.schema import InitializeResponse


class AliasAgent:
    def list_commands(self):
        return list(self._commands.values())

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        caps = Caps(load_session=True, slash_commands=[])
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=caps)
