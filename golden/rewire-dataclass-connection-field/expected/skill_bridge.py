# Part of the case: the bridge acp_agent.py gets its skill commands from
from acp.schema import AvailableCommand


class SkillBridge:
    def get_available_commands(self) -> list[AvailableCommand]:
        return [AvailableCommand(name="web", description="Search")]
