# Case: an SDK 0.6 agent made by a connection factory, its tests building it with a mock connection: `__init__(self, conn)` moves to `on_connect`, and every construction passing the connection with it
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
    session_notification,
    stdio_streams,
    text_block,
    update_agent_message,
)


class EchoAgent(Agent):
    def __init__(self, conn: AgentSideConnection) -> None:
        self._conn = conn

    async def initialize(self, params: InitializeRequest) -> InitializeResponse:
        return InitializeResponse(protocolVersion=params.protocolVersion)

    async def newSession(self, params: NewSessionRequest) -> NewSessionResponse:
        return NewSessionResponse(sessionId=uuid4().hex)

    async def prompt(self, params: PromptRequest) -> PromptResponse:
        for block in params.prompt:
            chunk = update_agent_message(text_block(block.text))
            await self._conn.sessionUpdate(session_notification(params.sessionId, chunk))
        return PromptResponse(stopReason="end_turn")


class ShoutingAgent(EchoAgent):
    def __init__(self, conn: AgentSideConnection, volume: int) -> None:
        super().__init__(conn)
        self.volume = volume


def make_for_tests(conn: AgentSideConnection) -> EchoAgent:
    agent = EchoAgent(conn)
    return agent


async def main() -> None:
    reader, writer = await stdio_streams()
    AgentSideConnection(lambda conn: EchoAgent(conn), writer, reader)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
