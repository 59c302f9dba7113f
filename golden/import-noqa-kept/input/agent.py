# Case: an import marked "# noqa: F401" stays even though the fix leaves it unused (deliberate re-export)
from typing import Any

from acp.schema import AgentCapabilities, InitializeResponse
# Re-exported for plugins.
from acp.schema import AvailableCommand  # noqa: F401


class PluginHost:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        commands: list[AvailableCommand] = []
        caps = AgentCapabilities(
            load_session=True,
            slash_commands=commands,
        )
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=caps)
