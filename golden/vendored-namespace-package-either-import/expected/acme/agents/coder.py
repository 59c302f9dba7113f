# Case: vendored shim in a PEP 420 namespace package (no __init__.py in acme/ nor acme/agents/)
# whose module imports nothing of its project: run as `python -m acme.agents.coder` or as the
# script `python acme/agents/coder.py`, nothing in it tells which. The shim is imported
# relatively, and plainly where that fails (a script has no parent package).
import asyncio
from typing import Any

from acp import run_agent
from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse

try:
    from .acp_command_advertiser import CommandAdvertiser
except ImportError:  # run as a script
    from acp_command_advertiser import CommandAdvertiser

COMMANDS = [AvailableCommand(name="review", description="Review the diff")]


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
