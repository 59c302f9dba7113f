# Case: SDK 0.5.0's examples/agent.py (agent-client-protocol 0.5.0, Apache-2.0; the same as 0.4.9's), moved to 1.0
import asyncio
import logging
from typing import Any

from acp import (
    Agent,
    AuthenticateResponse,
    InitializeResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PromptResponse,
    SetSessionModeResponse,
    PROTOCOL_VERSION,
    run_agent,
)
from acp.interfaces import Client
from acp.schema import (
    AgentCapabilities,
    AgentMessageChunk,
    McpCapabilities,
    PromptCapabilities,
    TextContentBlock,
)


class ExampleAgent(Agent):
    def __init__(self) -> None:
        self._next_session_id = 0

    def on_connect(self, conn: Client) -> None:
        self._conn = conn

    async def _send_chunk(self, session_id: str, content: Any) -> None:
        await self._conn.session_update(
            session_id=session_id,
            update=AgentMessageChunk(session_update="agent_message_chunk", content=content),
        )

    async def initialize(self, protocol_version, **kwargs) -> InitializeResponse:  # noqa: ARG002
        logging.info("Received initialize request")
        mcp_caps: McpCapabilities = McpCapabilities(http=False, sse=False)
        prompt_caps: PromptCapabilities = PromptCapabilities(audio=False, embeddedContext=False, image=False)
        agent_caps: AgentCapabilities = AgentCapabilities(
            loadSession=False,
            mcpCapabilities=mcp_caps,
            promptCapabilities=prompt_caps,
        )
        return InitializeResponse(
            protocolVersion=PROTOCOL_VERSION,
            agentCapabilities=agent_caps,
        )

    async def authenticate(self, method_id, **kwargs) -> AuthenticateResponse | None:  # noqa: ARG002
        logging.info("Received authenticate request")
        return AuthenticateResponse()

    async def new_session(self, cwd, **kwargs) -> NewSessionResponse:  # noqa: ARG002
        logging.info("Received new session request")
        session_id = str(self._next_session_id)
        self._next_session_id += 1
        return NewSessionResponse(sessionId=session_id)

    async def load_session(self, cwd, session_id, **kwargs) -> LoadSessionResponse | None:  # noqa: ARG002
        logging.info("Received load session request")
        return LoadSessionResponse()

    async def set_session_mode(self, session_id, mode_id, **kwargs) -> SetSessionModeResponse | None:  # noqa: ARG002
        logging.info("Received set session mode request")
        return SetSessionModeResponse()

    async def prompt(self, session_id, prompt, **kwargs) -> PromptResponse:
        logging.info("Received prompt request")

        # Notify the client what it just sent and then echo each content block back.
        await self._send_chunk(
            session_id,
            TextContentBlock(type="text", text="Client sent:"),
        )
        for block in prompt:
            await self._send_chunk(session_id, block)

        return PromptResponse(stopReason="end_turn")

    async def cancel(self, session_id, **kwargs) -> None:  # noqa: ARG002
        logging.info("Received cancel notification")

    async def ext_method(self, method: str, params: dict) -> dict:  # noqa: ARG002
        logging.info("Received extension method call: %s", method)
        return {"example": "response"}

    async def ext_notification(self, method: str, params: dict) -> None:  # noqa: ARG002
        logging.info("Received extension notification: %s", method)


async def main() -> None:
    logging.basicConfig(level=logging.INFO)
    await run_agent(ExampleAgent())


if __name__ == "__main__":
    asyncio.run(main())
