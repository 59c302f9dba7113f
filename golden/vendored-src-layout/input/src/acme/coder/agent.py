# Case: vendored shim in a `src/` layout (namespace packages under src/, installed or on
# PYTHONPATH=src, run as `python -m acme.coder.agent`) whose module imports nothing of its own:
# under src/ it is a module of a package, so the shim is imported relatively.
import asyncio
from typing import Any

from acp import run_agent
from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse


class CoderAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        commands = [AvailableCommand(name="review", description="Review the diff")]
        return InitializeResponse.create(protocol_version=protocol_version, slash_commands=commands)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s1")


def main() -> None:
    asyncio.run(run_agent(CoderAgent()))


if __name__ == "__main__":
    main()
