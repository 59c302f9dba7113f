# Case: a stdio agent started with run_agent: the call stays as it is (bind registers the observer)
import asyncio
from typing import Any

from acp import run_agent
from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


class StdioAgent:
    def __init__(self) -> None:
        self.conn = None
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(lambda: self.skills)
        return InitializeResponse.create(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="stdio")

    @property
    def skills(self) -> list:
        return [AvailableCommand(name="web", description="Search")]


async def main() -> None:
    await run_agent(StdioAgent(), use_unstable_protocol=True)


if __name__ == "__main__":
    asyncio.run(main())
