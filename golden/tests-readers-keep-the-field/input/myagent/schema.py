# Case: readers fix leaves (a conftest fixture, a parametrize over the field) keep the owned schema's field; a unittest test reading it from setUp goes
from acp import schema
from acp.schema import AvailableCommand
from pydantic import Field


class AgentCapabilities(schema.AgentCapabilities):
    """Agent capabilities extended with initialize-time slash commands."""

    slash_commands: list[AvailableCommand] = Field(default_factory=list, alias="slashCommands")
    """Slash commands advertised during initialize."""
