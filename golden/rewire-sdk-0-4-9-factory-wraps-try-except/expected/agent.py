# Case: SDK 0.4.9's example agent made by a decorated factory lambda, where
# a `functools.wraps` pass-through that logs a failed factory: bound in initialize
import asyncio
import functools
import logging

from acp import (
    PROTOCOL_VERSION,
    Agent,
    AgentSideConnection,
    InitializeRequest,
    InitializeResponse,
    LoadSessionRequest,
    LoadSessionResponse,
    NewSessionRequest,
    NewSessionResponse,
    stdio_streams,
)
from acp.schema import AgentCapabilities, AvailableCommand, McpCapabilities, PromptCapabilities
from acp_migrate.runtime import CommandAdvertiser

def traced(factory):
    @functools.wraps(factory)
    def make(conn):
        """Make the agent, logging a factory that fails."""
        try:
            agent = factory(conn)
        except Exception:
            logging.exception("the agent factory failed")
            raise
        return agent

    return make


COMMANDS = [
    AvailableCommand(name="web", description="Search the web"),
    AvailableCommand(name="test", description="Run the tests"),
]


class ExampleAgent(Agent):
    def __init__(self, conn: AgentSideConnection) -> None:
        self._conn = conn
        self._next_session_id = 0
        self._sessions: set[str] = set()
        self.command_advertiser = CommandAdvertiser()

    async def initialize(self, params: InitializeRequest) -> InitializeResponse:  # noqa: ARG002
        self.command_advertiser.bind(self._conn)
        self.command_advertiser.advertise(COMMANDS)
        logging.info("Received initialize request")
        mcp_caps: McpCapabilities = McpCapabilities(http=False, sse=False)
        prompt_caps: PromptCapabilities = PromptCapabilities(audio=False, embeddedContext=False, image=False)
        agent_caps: AgentCapabilities = AgentCapabilities(
            loadSession=True,
            mcpCapabilities=mcp_caps,
            promptCapabilities=prompt_caps,
        )
        return InitializeResponse(
            protocolVersion=PROTOCOL_VERSION,
            agentCapabilities=agent_caps,
        )

    async def newSession(self, params: NewSessionRequest) -> NewSessionResponse:  # noqa: ARG002
        logging.info("Received new session request")
        session_id = str(self._next_session_id)
        self._next_session_id += 1
        self._sessions.add(session_id)
        return NewSessionResponse(sessionId=session_id)

    async def loadSession(self, params: LoadSessionRequest) -> LoadSessionResponse | None:
        logging.info("Received load session request %s", params.sessionId)
        self._sessions.add(params.sessionId)
        return LoadSessionResponse()


async def main() -> None:
    logging.basicConfig(level=logging.INFO)
    reader, writer = await stdio_streams()
    AgentSideConnection(traced(lambda conn: ExampleAgent(conn)), writer, reader)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
