# Case: the connection's import was the module's only one: fix removes it and opens the module with `from acp import run_agent` (it used to lose it)
"""An agent served on the streams it is given."""

from acp import run_agent


class EchoAgent:
    def on_connect(self, conn):
        self._conn = conn


async def serve(writer, reader) -> None:
    await run_agent(EchoAgent(), writer, reader)
