# Case: a module-level agent factory hands the connection to __init__: bind there
import asyncio
from typing import Any

from acp import AgentSideConnection
from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


class FactoryAgent:
    def __init__(self, conn: AgentSideConnection) -> None:
        self.conn = conn
        self.command_advertiser = CommandAdvertiser()

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(self.available)
        return InitializeResponse(
            protocol_version=protocol_version,
            agent_capabilities=AgentCapabilities(),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=cwd)

    def available(self) -> list:
        return [AvailableCommand(name="web", description="Search")]


def make_agent(conn: AgentSideConnection) -> FactoryAgent:
    return FactoryAgent(conn)


async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    connection = AgentSideConnection(make_agent, writer, reader)
    await connection.listen()
