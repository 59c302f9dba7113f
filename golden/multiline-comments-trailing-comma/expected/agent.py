# Case: multi-line call with own-line comments around the keyword and a magic trailing comma
from importlib.metadata import version as _version
from typing import Any

from acp.schema import InitializeResponse


class CommentedAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse.create(
            protocol_version=protocol_version,
            name="commented-agent",
            version=_version("commented-agent"),
            # Session capabilities
            load_session=True,
            # Skills (RFC-0016)
            # MCP transports
            mcp_http=True,
            mcp_sse=False,
        )
