# Case: the project's ruff line-length is 120: a rewritten constructor that fits 120
# columns stays on its line (at 88 it would be broken), one that does not is broken.
import uuid

from acp import Agent, start_tool_call, text_block, update_agent_message, update_tool_call
from acp.schema import NewSessionResponse, PromptResponse


class EchoAgent(Agent):
    def on_connect(self, conn):
        self.conn = conn

    async def new_session(self, cwd, mcp_servers=None, **kwargs):
        return NewSessionResponse(session_id=uuid.uuid4().hex)

    async def prompt(self, prompt, session_id, **kwargs):
        call_id = f"echo-{uuid.uuid4().hex}"
        started = start_tool_call(call_id, "Echo", kind="other")
        await self.conn.session_update(session_id, started)
        for block in prompt:
            if block.type == "text":
                for line in block.text.splitlines():
                    if line.strip():
                        reply = update_agent_message(text_block(" ".join(line.split())))
                        await self.conn.session_update(session_id, reply)
        await self.conn.session_update(session_id, update_tool_call(call_id, status="completed"))
        return PromptResponse(stop_reason="end_turn")
