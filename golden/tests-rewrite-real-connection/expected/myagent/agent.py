# Part of the case: an agent that takes its connection in on_connect
from __future__ import annotations

from typing import Any

from acp import Agent, Client
from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


class SkillAgent(Agent):
    def __init__(self, skills: list[str]) -> None:
        self.skills = skills
        self.conn: Client | None = None
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn: Client) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(
            lambda: [AvailableCommand(name=skill, description=skill) for skill in self.skills]
        )
        return InitializeResponse(
            protocol_version=protocol_version,
            agent_capabilities=AgentCapabilities(load_session=False),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="session-1")
