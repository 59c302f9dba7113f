# Case: the list is a comprehension whose loop variable `c` is also a local of initialize: the
# comprehension's own variable does not tie it to initialize, so it moves
from typing import Any

from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse


class ComprehensionAgent:
    def __init__(self) -> None:
        self.names = ["web", "test"]

    def on_connect(self, conn: Any) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        for c in self.names:
            assert c
        return InitializeResponse.create(
            protocol_version=protocol_version,
            slash_commands=[AvailableCommand(name=c, description=c) for c in self.names],
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=cwd)
