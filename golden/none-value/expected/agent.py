# Case: provably empty value slash_commands=None in AgentCapabilities.create: removed, no ACP005
from typing import Any

from acp.schema import AgentCapabilities, InitializeResponse, McpCapabilities


class HttpAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        mcp = McpCapabilities(http=True, sse=False)
        caps = AgentCapabilities.create(load_session=True, mcp_capabilities=mcp)
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=caps)
