# Case: helper calls deep in a handler, rewritten to constructors that no longer fit
# ruff's default 88 columns: broken one keyword a line, outer call first.
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
        for block in prompt:
            if block.type == "text":
                for line in block.text.splitlines():
                    if line.strip():
                        call_id = f"echo-{uuid.uuid4().hex}"
                        started = ToolCallStart(
                            session_update="tool_call",
                            tool_call_id=call_id,
                            title="Echo",
                            kind="other",
                        )
                        await self.conn.session_update(session_id, started)
                        reply = AgentMessageChunk(
                            session_update="agent_message_chunk",
                            content=TextContentBlock(
                                type="text",
                                text=" ".join(line.split()),
                            ),
                        )
                        await self.conn.session_update(session_id, reply)
                        done = ToolCallProgress(
                            session_update="tool_call_update",
                            tool_call_id=call_id,
                            status="completed",
                        )
                        await self.conn.session_update(session_id, done)
        return PromptResponse(stop_reason="end_turn")
