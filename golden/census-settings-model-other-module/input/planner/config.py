from acp.schema import AvailableCommand
from pydantic import BaseModel


class CapabilitySettings(BaseModel):
    load_session: bool = True
    slash_commands: list[AvailableCommand] = []


class Settings(BaseModel):
    capabilities: CapabilitySettings = CapabilitySettings()
