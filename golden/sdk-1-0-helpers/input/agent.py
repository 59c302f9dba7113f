import uuid

from acp import Agent, text_block, update_agent_message
from acp.helpers import plan_entry, start_tool_call, update_plan, update_tool_call
from acp.schema import NewSessionResponse, PromptResponse


class EchoAgent(Agent):
    def on_connect(self, conn):
        self.conn = conn

    async def new_session(self, cwd, mcp_servers=None, **kwargs):
        return NewSessionResponse(session_id=uuid.uuid4().hex)

    async def prompt(self, prompt, session_id, **kwargs):
        await self.conn.session_update(session_id, update_plan([plan_entry("echo")]))
        await self.conn.session_update(
            session_id,
            start_tool_call("call-1", "Echo", kind="other"),
        )
        for block in prompt:
            await self.conn.session_update(session_id, update_agent_message(text_block(block.text)))
        await self.conn.session_update(session_id, update_tool_call("call-1", status="completed"))
        return PromptResponse(stop_reason="end_turn")
