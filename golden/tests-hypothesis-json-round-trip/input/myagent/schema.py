# Part of the case: the project owns its schema
from acp import schema
from acp.schema import AvailableCommand
from pydantic import Field


class AgentCapabilities(schema.AgentCapabilities):
    """Agent capabilities extended with initialize-time slash commands."""

    slash_commands: list[AvailableCommand] = Field(default_factory=list, alias="slashCommands")
    """Slash commands advertised during initialize."""
