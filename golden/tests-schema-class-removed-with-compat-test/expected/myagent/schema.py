# Part of the case: the project's own capabilities schema, with the legacy field
from acp import schema


class AgentCapabilities(schema.AgentCapabilities):
    """Agent capabilities extended with initialize-time slash commands."""
