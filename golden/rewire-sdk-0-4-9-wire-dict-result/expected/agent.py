# Case: SDK 0.4.9, whose models drop unknown fields: the agent answers initialize with the wire
# dict itself so `slashCommands` goes out; camelCase request-object handlers, a factory
import asyncio
from typing import Any

from acp import AgentSideConnection, stdio_streams
from acp.schema import InitializeRequest, LoadSessionRequest, NewSessionRequest, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser

SLASH_COMMANDS = [
    {"name": "web", "description": "Search the web", "input": {"hint": "query"}},
    {"name": "plan", "description": "Write a plan"},
]


class WireAgent:
    def __init__(self, conn: AgentSideConnection) -> None:
        self.conn = conn
        self.loaded: list[str] = []
        self.command_advertiser = CommandAdvertiser()

    async def initialize(self, params: InitializeRequest) -> dict[str, Any]:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(SLASH_COMMANDS)
        return {
            "protocolVersion": params.protocolVersion,
            "agentCapabilities": {"loadSession": True},
        }

    async def newSession(self, params: NewSessionRequest) -> NewSessionResponse:
        return NewSessionResponse(sessionId="wire-1")

    async def loadSession(self, params: LoadSessionRequest) -> None:
        self.loaded.append(params.sessionId)


async def main() -> None:
    reader, writer = await stdio_streams()
    AgentSideConnection(lambda conn: WireAgent(conn), writer, reader)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
