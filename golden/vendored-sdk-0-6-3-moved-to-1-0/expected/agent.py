# Case: both moves in one fix: an SDK 0.6.3 agent (request objects, a factory) advertising commands at initialize, moved to 1.0
import asyncio

from acp import run_agent
from acp.interfaces import Client
from acp.schema import (
    AvailableCommand,
    InitializeResponse,
    LoadSessionResponse,
    NewSessionResponse,
)

from acp_command_advertiser import CommandAdvertiser
from schema import AgentCapabilities


class OldSdkAgent:
    def __init__(self) -> None:
        self._sessions: set[str] = set()
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, connection: Client) -> None:
        self._connection = connection

    async def initialize(self, protocol_version, **kwargs) -> InitializeResponse:
        self.command_advertiser.bind(self._connection)
        self.command_advertiser.advertise(self.skills)
        return InitializeResponse(
            protocolVersion=protocol_version,
            agentCapabilities=AgentCapabilities(loadSession=True),
        )

    async def new_session(self, cwd, **kwargs) -> NewSessionResponse:
        session_id = f"s{len(self._sessions)}"
        self._sessions.add(session_id)
        return NewSessionResponse(sessionId=session_id)

    async def load_session(self, cwd, session_id, **kwargs) -> LoadSessionResponse | None:
        if session_id not in self._sessions:
            return None
        self._sessions.add(session_id)

    def skills(self) -> list:
        return [AvailableCommand(name="web", description="Search")]


async def main(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await run_agent(OldSdkAgent(), writer, reader)
