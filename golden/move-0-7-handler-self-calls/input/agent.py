# Case: an SDK 0.6 agent calling its own handlers (a prompt on an unknown session creates one; a subclass through super()), moved with the handlers
import asyncio
from uuid import uuid4

from acp import (
    Agent,
    AgentSideConnection,
    InitializeRequest,
    InitializeResponse,
    NewSessionRequest,
    NewSessionResponse,
    PromptRequest,
    PromptResponse,
    SessionNotification,
    stdio_streams,
)
from acp.schema import AgentMessageChunk, TextContentBlock


class EchoAgent(Agent):
    def __init__(self, conn):
        self._conn = conn
        self._sessions = set()

    async def initialize(self, params: InitializeRequest) -> InitializeResponse:
        return InitializeResponse(protocolVersion=params.protocolVersion)

    async def newSession(self, params: NewSessionRequest) -> NewSessionResponse:
        session_id = uuid4().hex
        self._sessions.add(session_id)
        return NewSessionResponse(sessionId=session_id)

    async def prompt(self, params: PromptRequest) -> PromptResponse:
        said = "known session"
        if params.sessionId not in self._sessions:
            # A client that skipped session/new: the agent makes one itself.
            created = await self.newSession(NewSessionRequest(cwd="/", mcpServers=[]))
            said = f"created {len(created.sessionId)}"
        chunk = AgentMessageChunk(sessionUpdate="agent_message_chunk", content=TextContentBlock(type="text", text=said))
        await self._conn.sessionUpdate(SessionNotification(sessionId=params.sessionId, update=chunk))
        return PromptResponse(stopReason="end_turn")


class LoggedAgent(EchoAgent):
    async def fresh(self):
        return await super().newSession(
            NewSessionRequest(
                cwd="/tmp",
                mcpServers=[],
            )
        )


async def main() -> None:
    reader, writer = await stdio_streams()
    AgentSideConnection(lambda conn: EchoAgent(conn), writer, reader)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
