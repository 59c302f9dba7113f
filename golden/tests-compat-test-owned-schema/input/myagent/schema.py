# Case: the project owns its schema; its tests of the field go and the backward-compatibility test takes their place
from acp import schema
from acp.schema import AvailableCommand
from pydantic import Field


class AgentCapabilities(schema.AgentCapabilities):
    """Agent capabilities extended with initialize-time slash commands."""

    slash_commands: list[AvailableCommand] = Field(default_factory=list, alias="slashCommands")
    """Slash commands advertised during initialize."""
