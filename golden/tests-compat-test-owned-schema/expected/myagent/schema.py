# Case: the project owns its schema; its tests of the field go and the backward-compatibility test takes their place
from acp import schema


class AgentCapabilities(schema.AgentCapabilities):
    """Agent capabilities extended with initialize-time slash commands."""
