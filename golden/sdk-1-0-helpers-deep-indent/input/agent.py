# Case: helper calls deep in a handler, rewritten to constructors that no longer fit
# ruff's default 88 columns: broken one keyword a line, outer call first.
import uuid

from acp import Agent, start_tool_call, text_block, update_agent_message
from acp.helpers import update_tool_call
from acp.schema import (
    NewSessionResponse,
    PromptResponse,
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
                        started = start_tool_call(call_id, "Echo", kind="other")
                        await self.conn.session_update(session_id, started)
                        reply = update_agent_message(text_block(" ".join(line.split())))
                        await self.conn.session_update(session_id, reply)
                        done = update_tool_call(call_id, status="completed")
                        await self.conn.session_update(session_id, done)
        return PromptResponse(stop_reason="end_turn")
