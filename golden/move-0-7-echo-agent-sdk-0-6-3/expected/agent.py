# Case: SDK 0.6.3's examples/echo_agent.py (agent-client-protocol 0.6.3, Apache-2.0), moved to 1.0: newSession on an acp.Agent subclass answers null from 0.7
import asyncio
from uuid import uuid4

from acp import (
    Agent,
    InitializeResponse,
    NewSessionResponse,
    PromptResponse,
    run_agent,
)
from acp.schema import AgentMessageChunk, SessionNotification, TextContentBlock


class EchoAgent(Agent):
    def on_connect(self, conn):
        self._conn = conn

    async def initialize(self, protocol_version, **kwargs) -> InitializeResponse:
        return InitializeResponse(protocolVersion=protocol_version)

    async def new_session(self, cwd, **kwargs) -> NewSessionResponse:
        return NewSessionResponse(sessionId=uuid4().hex)

    async def prompt(self, session_id, prompt, **kwargs) -> PromptResponse:
        for block in prompt:
            text = block.get("text", "") if isinstance(block, dict) else getattr(block, "text", "")
            chunk = AgentMessageChunk(
                session_update="agent_message_chunk",
                content=TextContentBlock(type="text", text=text),
            )
            chunk.field_meta = {"echo": True}
            chunk.content.field_meta = {"echo": True}

            notification = SessionNotification(session_id=session_id, update=chunk)
            notification.field_meta = {"source": "echo_agent"}

            await self._conn.sessionUpdate(notification)
        return PromptResponse(stopReason="end_turn")


async def main() -> None:
    await run_agent(EchoAgent())


if __name__ == "__main__":
    asyncio.run(main())
