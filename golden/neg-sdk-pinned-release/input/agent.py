import uuid

from acp import Agent
from acp.schema import ContentBlock1, NewSessionResponse, PromptResponse, SessionUpdate2
from acp import schema


class EchoAgent(Agent):
    def on_connect(self, conn):
        self.conn = conn

    async def new_session(self, cwd, mcp_servers=None, **kwargs):
        return NewSessionResponse(session_id=uuid.uuid4().hex)

    async def prompt(self, prompt, session_id, **kwargs):
        for block in prompt:
            if isinstance(block, ContentBlock1):
                reply = ContentBlock1(type="text", text=block.text)
                update = SessionUpdate2(session_update="agent_message_chunk", content=reply)
                await self.conn.session_update(session_id=session_id, update=update)
        thought = schema.SessionUpdate3(session_update="agent_thought_chunk", content=ContentBlock1(type="text", text="done"))
        await self.conn.session_update(session_id=session_id, update=thought)
        return PromptResponse(stop_reason="end_turn")
