# Case: **kwargs built in initialize (a dict literal, then a kwargs["slash_commands"] line): the entries go, the lists move
from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse, NewSessionResponse


class KwargsAgent:
    def __init__(self) -> None:
        self.conn = None

    def on_connect(self, conn) -> None:
        self.conn = conn

    def skills(self) -> list[AvailableCommand]:
        return [AvailableCommand(name="web", description="Search the web")]

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        skill_commands = self.skills()
        caps_kwargs = {
            "load_session": True,
            "slash_commands": skill_commands,
        }
        return InitializeResponse(protocol_version=PROTOCOL_VERSION, agent_capabilities=AgentCapabilities(**caps_kwargs))

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="kwargs")


class SubscriptKwargsAgent:
    def __init__(self) -> None:
        self.conn = None

    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        options = dict(load_session=True)
        options["slash_commands"] = [AvailableCommand(name="test", description="Run the tests")]
        return InitializeResponse.create(protocol_version=PROTOCOL_VERSION, **options)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="subscript")
