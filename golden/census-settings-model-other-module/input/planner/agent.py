from acp.schema import AgentCapabilities, InitializeResponse

from .config import Settings


class Agent:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    async def initialize(self, protocol_version: int, **kwargs) -> InitializeResponse:
        caps = AgentCapabilities(**self.settings.capabilities.model_dump())
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=caps)
