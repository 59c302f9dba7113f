# Case: AvailableCommand made unused is removed; SessionMode and os, unused before the fix, are not touched
import os

from acp.schema import AgentCapabilities as SdkAgentCapabilities
from acp.schema import AvailableCommand, SessionMode
from pydantic import Field


class AgentCapabilities(SdkAgentCapabilities):
    """Capabilities with the legacy command list."""

    slash_commands: list[AvailableCommand] = Field(default_factory=list, alias="slashCommands")
