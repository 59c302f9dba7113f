# Case: AgentPool's shape on SDK 0.5.0: a dataclass agent whose `client` field holds the connection
# (filled by a factory), camelCase request-object handlers, the list from a helper at initialize
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from acp import Agent, AgentSideConnection, stdio_streams
from acp.schema import (
    AgentCapabilities,
    AvailableCommand,
    InitializeRequest,
    InitializeResponse,
    LoadSessionRequest,
    LoadSessionResponse,
    NewSessionRequest,
    NewSessionResponse,
)


@dataclass
class PoolAgent(Agent):
    """Bridges a pool of agents to ACP."""

    client: AgentSideConnection
    """ACP connection for client communication."""

    load_skills: bool = True
    sessions: dict[str, Any] = field(default_factory=dict)

    def get_skill_commands(self) -> list[AvailableCommand]:
        if not self.load_skills:
            return []
        return [AvailableCommand(name="web", description="Search the web")]

    async def initialize(self, params: InitializeRequest) -> InitializeResponse:
        """Initialize the agent and negotiate capabilities."""
        version = min(params.protocolVersion, 1)
        return InitializeResponse(
            protocolVersion=version,
            agentCapabilities=AgentCapabilities(loadSession=True, slashCommands=self.get_skill_commands()),
        )

    async def newSession(self, params: NewSessionRequest) -> NewSessionResponse:
        session_id = f"pool-{len(self.sessions)}"
        self.sessions[session_id] = params.cwd
        return NewSessionResponse(sessionId=session_id)

    async def loadSession(self, params: LoadSessionRequest) -> LoadSessionResponse:
        self.sessions[params.sessionId] = params.cwd
        return LoadSessionResponse()


async def serve() -> None:
    reader, writer = await stdio_streams()
    AgentSideConnection(lambda conn: PoolAgent(client=conn), writer, reader)
    await asyncio.Event().wait()
