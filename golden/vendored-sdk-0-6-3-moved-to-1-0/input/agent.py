# Case: both moves in one fix: an SDK 0.6.3 agent (request objects, a factory) advertising commands at initialize, moved to 1.0
import asyncio

from acp import AgentSideConnection
from acp.schema import (
    AvailableCommand,
    InitializeRequest,
    InitializeResponse,
    LoadSessionRequest,
    LoadSessionResponse,
    NewSessionRequest,
    NewSessionResponse,
)

from schema import AgentCapabilities


class OldSdkAgent:
    def __init__(self, connection: AgentSideConnection) -> None:
        self._connection = connection
        self._sessions: set[str] = set()

    async def initialize(self, params: InitializeRequest) -> InitializeResponse:
        return InitializeResponse(
            protocolVersion=params.protocolVersion,
            agentCapabilities=AgentCapabilities(loadSession=True, slash_commands=self.skills()),
        )

    async def newSession(self, params: NewSessionRequest) -> NewSessionResponse:
        session_id = f"s{len(self._sessions)}"
        self._sessions.add(session_id)
        return NewSessionResponse(sessionId=session_id)

    async def loadSession(self, params: LoadSessionRequest) -> LoadSessionResponse | None:
        if params.sessionId not in self._sessions:
            return None
        self._sessions.add(params.sessionId)

    def skills(self) -> list:
        return [AvailableCommand(name="web", description="Search")]


async def main(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    conn = AgentSideConnection(lambda conn: OldSdkAgent(conn), writer, reader)
    await asyncio.Event().wait()
    del conn
