# Case: the connection's import was the module's only one: fix removes it and opens the module with `from acp import run_agent` (it used to lose it)
"""An agent served on the streams it is given."""

from acp import AgentSideConnection


class EchoAgent:
    def __init__(self, conn):
        self._conn = conn


async def serve(writer, reader) -> None:
    AgentSideConnection(lambda conn: EchoAgent(conn), writer, reader)
