# Case: AgentCapabilities.create(...) on one line with slash_commands= as the last keyword
from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse


def build_capabilities(commands: list[AvailableCommand]) -> AgentCapabilities:
    return AgentCapabilities.create(load_session=True)


class EchoAgent:
    def __init__(self, commands: list[AvailableCommand]) -> None:
        self.commands = commands

    async def initialize(self, protocol_version: int, **kwargs) -> InitializeResponse:
        return InitializeResponse(
            protocol_version=protocol_version,
            agent_capabilities=build_capabilities(self.commands),
        )
