# Case: an SDK 0.6 agent calling its own handlers (a prompt on an unknown session creates one; a subclass through super()), moved with the handlers
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
    def __init__(self):
        self._sessions = set()

    def on_connect(self, conn) -> None:
        self._conn = conn

    async def initialize(self, protocol_version, **kwargs) -> InitializeResponse:
        return InitializeResponse(protocolVersion=protocol_version)

    async def new_session(self, cwd, **kwargs) -> NewSessionResponse:
        session_id = uuid4().hex
        self._sessions.add(session_id)
        return NewSessionResponse(sessionId=session_id)

    async def prompt(self, session_id, prompt, **kwargs) -> PromptResponse:
        said = "known session"
        if session_id not in self._sessions:
            # A client that skipped session/new: the agent makes one itself.
            created = await self.new_session(cwd="/", mcp_servers=[])
            said = f"created {len(created.sessionId)}"
        chunk = AgentMessageChunk(sessionUpdate="agent_message_chunk", content=TextContentBlock(type="text", text=said))
        await self._conn.session_update(session_id=session_id, update=chunk)
        return PromptResponse(stopReason="end_turn")


class LoggedAgent(EchoAgent):
    async def fresh(self):
        return await super().new_session(
            cwd="/tmp",
            mcp_servers=[],
        )


async def main() -> None:
    await run_agent(EchoAgent())


if __name__ == "__main__":
    asyncio.run(main())
