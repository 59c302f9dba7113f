# Case: vendored shim in a PEP 420 namespace package (no __init__.py in acme/ nor acme/agents/),
# run as `python -m acme.agents.coder`, whose modules import each other relatively: the shim is
# imported relatively too (a plain import is not found from the project's root).
import asyncio
from typing import Any

from acp import run_agent
from acp.schema import InitializeResponse, NewSessionResponse

from .tools import COMMANDS


class CoderAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse.create(protocol_version=protocol_version, slash_commands=COMMANDS)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s1")


if __name__ == "__main__":
    asyncio.run(run_agent(CoderAgent()))
