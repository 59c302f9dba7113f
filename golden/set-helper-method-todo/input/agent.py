# Case: keywords in helper methods fix cannot follow (a method initialize does not call, one that uses its own parameter): kept with a TODO, ACP005 says why
from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse, NewSessionResponse


class ParameterHelperAgent:
    def __init__(self) -> None:
        self.conn = None

    def on_connect(self, conn) -> None:
        self.conn = conn

    def _capabilities(self, protocol_version: int) -> AgentCapabilities:
        commands = [AvailableCommand(name="web", description="Search")] if protocol_version < 2 else []
        return AgentCapabilities(slash_commands=commands)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(protocol_version=PROTOCOL_VERSION, agent_capabilities=self._capabilities(protocol_version))

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="parameter")


class UncalledHelperAgent:
    def __init__(self) -> None:
        self.conn = None
        self.caps = self._capabilities()

    def on_connect(self, conn) -> None:
        self.conn = conn

    def _capabilities(self) -> AgentCapabilities:
        return AgentCapabilities(slash_commands=[AvailableCommand(name="test", description="Run the tests")])

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(protocol_version=PROTOCOL_VERSION, agent_capabilities=self.caps)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="uncalled")
