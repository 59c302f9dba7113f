# Case: the constant is imported from capabilities.py; here SHARED is also read by a module function
from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import AgentCapabilities, InitializeResponse, NewSessionResponse

from capabilities import CAPABILITIES, SKILLS

SHARED = AgentCapabilities(slash_commands=SKILLS)


class ImportingAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(protocol_version=PROTOCOL_VERSION, agent_capabilities=CAPABILITIES)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="importing")


class SharedAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(protocol_version=PROTOCOL_VERSION, agent_capabilities=SHARED)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="shared")


def describe() -> str:
    return SHARED.model_dump_json()
