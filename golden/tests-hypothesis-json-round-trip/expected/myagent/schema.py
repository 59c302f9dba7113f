# Part of the case: the project owns its schema
from acp import schema


class AgentCapabilities(schema.AgentCapabilities):
    """Agent capabilities extended with initialize-time slash commands."""
