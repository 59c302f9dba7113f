import uuid

from acp import Agent, KillTerminalResponse
from acp.schema import AuthMethodAgent, InitializeResponse, NewSessionResponse, PromptResponse
from acp.schema import AgentMessageChunk, TextContentBlock


class EchoAgent(Agent):
    def on_connect(self, conn):
        self.conn = conn

    async def initialize(self, protocol_version, client_capabilities=None, client_info=None, **kwargs):
        return InitializeResponse(protocol_version=protocol_version, auth_methods=[AuthMethodAgent(id="token", name="Token")])

    async def new_session(self, cwd, mcp_servers=None, **kwargs):
        return NewSessionResponse(session_id=uuid.uuid4().hex)

    async def prompt(self, prompt, session_id, **kwargs):
        killed: KillTerminalResponse | None = None
        for block in prompt:
            update = AgentMessageChunk(session_update="agent_message_chunk", content=TextContentBlock(type="text", text=block.text))
            await self.conn.session_update(session_id=session_id, update=update)
        return PromptResponse(stop_reason="end_turn" if killed is None else "cancelled")
