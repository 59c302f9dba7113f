# Case: vendored shim in a PEP 420 namespace package run as `python -m acme.agents.coder` whose
# module imports another module of its top package absolutely (`acme.commands`), never its own
# folder: the shim is imported by its absolute name, `acme.agents.acp_command_advertiser`.
import asyncio
from typing import Any

from acp import run_agent
from acp.schema import InitializeResponse, NewSessionResponse

from acme.agents.acp_command_advertiser import CommandAdvertiser
from acme.commands import COMMANDS


class CoderAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn
        self.command_advertiser = CommandAdvertiser().bind(conn)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.advertise(COMMANDS)
        return InitializeResponse.create(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s1")


if __name__ == "__main__":
    asyncio.run(run_agent(CoderAgent()))
