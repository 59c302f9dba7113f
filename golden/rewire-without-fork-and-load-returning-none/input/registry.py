# Part of the case: the command registry the agent is given
from acp.schema import AvailableCommand


class Registry:
    def commands(self) -> list[AvailableCommand]:
        return [AvailableCommand(name="web", description="Search")]

    def restore(self, session_id: str) -> None:
        pass
