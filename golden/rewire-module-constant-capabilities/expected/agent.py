# Case: a module-level capabilities constant that the agent's initialize uses: the keyword goes, the class attaches its list (the class mentions no legacy token itself)
from __future__ import annotations

import uuid
from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser

SKILLS = [
    AvailableCommand(name="web", description="Search the web"),
]

CAPABILITIES = AgentCapabilities(
    load_session=False,
)


class ConstantAgent:
    def __init__(self) -> None:
        self.conn = None
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(SKILLS)
        return InitializeResponse(protocol_version=min(protocol_version, PROTOCOL_VERSION), agent_capabilities=CAPABILITIES)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=uuid.uuid4().hex)
