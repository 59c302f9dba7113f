# Case: SDK 0.4.9's examples/echo_agent.py (agent-client-protocol 0.4.9, Apache-2.0; 0.5.0's is the same), moved to 1.0
import asyncio
from uuid import uuid4

from acp import (
    Agent,
    InitializeResponse,
    NewSessionResponse,
    PromptResponse,
    run_agent,
)
from acp.schema import AgentMessageChunk, TextContentBlock


class EchoAgent(Agent):
    def on_connect(self, conn):
        self._conn = conn

    async def initialize(self, protocol_version, **kwargs) -> InitializeResponse:
        return InitializeResponse(protocolVersion=protocol_version)

    async def new_session(self, cwd, **kwargs) -> NewSessionResponse:
        return NewSessionResponse(sessionId=uuid4().hex)

    async def prompt(self, session_id, prompt, **kwargs) -> PromptResponse:
        for block in prompt:
            text = getattr(block, "text", "")
            await self._conn.session_update(
                session_id=session_id,
                update=AgentMessageChunk(session_update="agent_message_chunk", content=TextContentBlock(type="text", text=text)),
            )
        return PromptResponse(stopReason="end_turn")


async def main() -> None:
    await run_agent(EchoAgent())


if __name__ == "__main__":
    asyncio.run(main())
