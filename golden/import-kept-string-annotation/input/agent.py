# Case: AvailableCommand is still used in a string annotation, so its import stays after the fix removes the empty local annotated with it
from typing import Any

from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse


class ReviewAgent:
    def __init__(self, review_command) -> None:
        self._review = review_command

    def review_command(self) -> "AvailableCommand":
        return self._review

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        commands: list[AvailableCommand] = []
        caps = AgentCapabilities(
            load_session=True,
            slash_commands=commands,
        )
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=caps)
