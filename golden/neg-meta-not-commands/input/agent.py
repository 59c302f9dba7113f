# Case (negative): _meta entries on AgentCapabilities that are not slash commands
from typing import Any

from acp.schema import AgentCapabilities, InitializeResponse


class MetaAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        caps = AgentCapabilities(
            load_session=True,
            field_meta={"agentpool.dev/commands": {"reloadable": True}, "agentpool.dev/tier": "pro"},
        )
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=caps)

    def raw_initialize(self) -> dict[str, Any]:
        return {
            "protocolVersion": 1,
            "agentCapabilities": {"loadSession": True, "_meta": {"commandsReloadable": True}},
        }
