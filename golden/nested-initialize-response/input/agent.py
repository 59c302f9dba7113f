# Case: nested InitializeResponse(agent_capabilities=AgentCapabilities(..., slash_commands=X))
from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import AgentCapabilities, Implementation, InitializeResponse, PromptCapabilities

from . import __version__


class PoolAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(
            protocol_version=PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(
                load_session=True,
                prompt_capabilities=PromptCapabilities(image=True, embedded_context=True),
                slash_commands=[],
            ),
            agent_info=Implementation(name="pool-agent", version=__version__),
        )
