from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse
from pydantic import BaseModel


class CapabilitySettings(BaseModel):
    load_session: bool = True
    slash_commands: list[AvailableCommand] = []


class Settings(BaseModel):
    capabilities: CapabilitySettings = CapabilitySettings()


class Agent:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    async def initialize(self, protocol_version: int, **kwargs) -> InitializeResponse:
        caps = AgentCapabilities(**self.settings.capabilities.model_dump())
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=caps)
