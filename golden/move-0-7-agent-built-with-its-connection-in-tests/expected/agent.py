# Case: an SDK 0.6 agent made by a connection factory, its tests building it with a mock connection: `__init__(self, conn)` moves to `on_connect`, and every construction passing the connection with it
import asyncio
from uuid import uuid4

from acp import (
    Agent,
    AgentSideConnection,
    InitializeResponse,
    NewSessionResponse,
    PromptResponse,
    run_agent,
)
from acp.interfaces import Client
from acp.schema import AgentMessageChunk, TextContentBlock


class EchoAgent(Agent):
    def on_connect(self, conn: Client) -> None:
        self._conn = conn

    async def initialize(self, protocol_version, **kwargs) -> InitializeResponse:
        return InitializeResponse(protocolVersion=protocol_version)

    async def new_session(self, cwd, **kwargs) -> NewSessionResponse:
        return NewSessionResponse(sessionId=uuid4().hex)

    async def prompt(self, session_id, prompt, **kwargs) -> PromptResponse:
        for block in prompt:
            chunk = AgentMessageChunk(
                session_update="agent_message_chunk",
                content=TextContentBlock(type="text", text=block.text),
            )
            await self._conn.session_update(session_id=session_id, update=chunk)
        return PromptResponse(stopReason="end_turn")


class ShoutingAgent(EchoAgent):
    def __init__(self, conn: AgentSideConnection, volume: int) -> None:
        super().__init__()
        self.on_connect(conn)
        self.volume = volume


def make_for_tests(conn: AgentSideConnection) -> EchoAgent:
    agent = EchoAgent()
    agent.on_connect(conn)
    return agent


async def main() -> None:
    await run_agent(EchoAgent())


if __name__ == "__main__":
    asyncio.run(main())
