# Part of the case: a caller fix leaves (suppressed), so the schema keeps its field
from acp.schema import AvailableCommand

from myagent.schema import AgentCapabilities

COMMANDS = [AvailableCommand(name="plan", description="Create a plan")]


def capabilities() -> AgentCapabilities:
    return AgentCapabilities(slash_commands=COMMANDS)  # acp-migrate: ignore[ACP001]
