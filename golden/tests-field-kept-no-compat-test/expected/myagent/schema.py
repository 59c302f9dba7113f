# Part of the case: the project's own capabilities schema, with the legacy field
from acp import schema
from acp.schema import AvailableCommand
from pydantic import Field


class AgentCapabilities(schema.AgentCapabilities):
    """Agent capabilities extended with initialize-time slash commands."""

    slash_commands: list[AvailableCommand] = Field(default_factory=list, alias="slashCommands")
    """Slash commands advertised during initialize."""
