# Case: nested InitializeResponse(agent_capabilities=AgentCapabilities(..., slash_commands=X))
from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import AgentCapabilities, Implementation, InitializeResponse, PromptCapabilities

from . import __version__


class PoolAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        # acp-migrate: TODO: advertise `self._command_store.list_commands()` per session; not moved automatically: class `PoolAgent` has no session setup handler
        return InitializeResponse(
            protocol_version=PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(
                load_session=True,
                prompt_capabilities=PromptCapabilities(image=True, embedded_context=True),
            ),
            agent_info=Implementation(name="pool-agent", version=__version__),
        )
