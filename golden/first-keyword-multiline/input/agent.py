# Case: keyword is the first element of a multi-line call
from typing import Any

from acp.schema import AgentCapabilities, InitializeResponse, PromptCapabilities


class FirstAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        capabilities = AgentCapabilities(
            slash_commands=[],
            load_session=True,
            prompt_capabilities=PromptCapabilities(audio=False, image=True),
        )
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=capabilities)
