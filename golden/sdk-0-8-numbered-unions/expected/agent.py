import uuid

from acp import Agent
from acp.schema import TextContentBlock, NewSessionResponse, PromptResponse, AgentMessageChunk
from acp import schema


class EchoAgent(Agent):
    def on_connect(self, conn):
        self.conn = conn

    async def new_session(self, cwd, mcp_servers=None, **kwargs):
        return NewSessionResponse(session_id=uuid.uuid4().hex)

    async def prompt(self, prompt, session_id, **kwargs):
        for block in prompt:
            if isinstance(block, TextContentBlock):
                reply = TextContentBlock(type="text", text=block.text)
                update = AgentMessageChunk(session_update="agent_message_chunk", content=reply)
                await self.conn.session_update(session_id=session_id, update=update)
        thought = schema.AgentThoughtChunk(session_update="agent_thought_chunk", content=TextContentBlock(type="text", text="done"))
        await self.conn.session_update(session_id=session_id, update=thought)
        return PromptResponse(stop_reason="end_turn")
