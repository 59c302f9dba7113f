import uuid

from acp import Agent
from acp.schema import (
    AgentMessageChunk,
    AgentPlanUpdate,
    NewSessionResponse,
    PlanEntry,
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
        await self.conn.session_update(
            session_id,
            AgentPlanUpdate(
                session_update="plan",
                entries=[
                    PlanEntry(content="echo", priority="medium", status="pending"),
                ],
            ),
        )
        await self.conn.session_update(
            session_id,
            ToolCallStart(
                session_update="tool_call",
                tool_call_id="call-1",
                title="Echo",
                kind="other",
            ),
        )
        for block in prompt:
            await self.conn.session_update(
                session_id,
                AgentMessageChunk(
                    session_update="agent_message_chunk",
                    content=TextContentBlock(type="text", text=block.text),
                ),
            )
        await self.conn.session_update(
            session_id,
            ToolCallProgress(
                session_update="tool_call_update",
                tool_call_id="call-1",
                status="completed",
            ),
        )
        return PromptResponse(stop_reason="end_turn")
