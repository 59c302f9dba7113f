# Case: AgentCapabilities(...) on one line, slash_commands= between two other keywords
from typing import Any

from acp.schema import AgentCapabilities, Implementation, InitializeResponse, PromptCapabilities


class RegistryAgent:
    def __init__(self, registry) -> None:
        self.registry = registry

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        caps = AgentCapabilities(load_session=True, slash_commands=[], prompt_capabilities=PromptCapabilities(image=True))
        return InitializeResponse(
            protocol_version=protocol_version,
            agent_capabilities=caps,
            agent_info=Implementation(name="registry-agent", version="1.2.0"),
        )
