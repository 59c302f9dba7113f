# Case: the project's ruff line-length is 120: a rewritten constructor that fits 120
# columns stays on its line (at 88 it would be broken), one that does not is broken.
import uuid

from acp import Agent
from acp.schema import (
    AgentMessageChunk,
    NewSessionResponse,
    PromptResponse,
    TextContentBlock,
    ToolCallProgress,
    ToolCallStart,
)


class EchoAgent(Agent):
    def on_connect(self, conn):
        self.conn = conn

    async def new_session(self, cwd, mcp_servers=None, **kwargs):
        return NewSessionResponse(session_id=uuid.uuid4().hex)

    async def prompt(self, prompt, session_id, **kwargs):
        call_id = f"echo-{uuid.uuid4().hex}"
        started = ToolCallStart(session_update="tool_call", tool_call_id=call_id, title="Echo", kind="other")
        await self.conn.session_update(session_id, started)
        for block in prompt:
            if block.type == "text":
                for line in block.text.splitlines():
                    if line.strip():
                        reply = AgentMessageChunk(
                            session_update="agent_message_chunk",
                            content=TextContentBlock(type="text", text=" ".join(line.split())),
                        )
                        await self.conn.session_update(session_id, reply)
        await self.conn.session_update(
            session_id,
            ToolCallProgress(session_update="tool_call_update", tool_call_id=call_id, status="completed"),
        )
        return PromptResponse(stop_reason="end_turn")
