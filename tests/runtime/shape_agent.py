"""A migrated SDK 0.12.1 agent on stdio in the shapes where the shim could lose a list.

``python shape_agent.py SHIM SHAPE``: SHIM is ``vendored`` (``acp_command_advertiser``,
the file ``fix`` writes, on ``PYTHONPATH``) or ``none`` (the agent as it was, for the
negative control). As the migration leaves an
agent, its setup handlers send the session's own list straight to the connection, and
the advertiser is given the commands moved out of ``initialize``. SHAPE:

* ``pipelined``: bound first thing in ``initialize`` (AgentPool's shape) while a
  setup request the client sent without waiting for the ``initialize`` answer is
  already read. That order, which a client writing both requests at once gets
  whenever the agent reads them in one go, is made certain here: ``initialize``
  binds once a setup handler has started, and that handler sends once bound.
* ``listen-twice``: bound in ``on_connect``; ``main`` builds the
  ``AgentSideConnection`` (which on SDK 0.12.1 starts its receive loop) and then also
  awaits ``conn.listen()``, a second receive loop. Its handlers send nothing (the SDK
  refused every notification of this agent before its migration).
* ``listen-twice-late``: the same, bound first thing in ``initialize``.
* ``never-connected``: ``initialize`` binds what ``on_connect`` never filled: ``None``.
* ``cwd="/fail"`` makes a setup fail after sending its list.
* ``late-bind``: bound in the first ``session/new`` handler (misuse): ``initialize``
  went by unobserved.

The extension request ``_log`` returns what the advertiser logged (one string each).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any

import acp
from acp.schema import AvailableCommand, AvailableCommandsUpdate

SHIM, SHAPE = sys.argv[1], sys.argv[2]
if SHIM == "vendored":
    from acp_command_advertiser import CommandAdvertiser
else:
    CommandAdvertiser = None

OWN = {
    "new": [{"name": "web", "description": "Search the web"}],
    "load": [{"name": "resume-work", "description": "Pick up where it stopped"}],
    "resume": [{"name": "resumed", "description": "Resumed"}],
    "fork": [{"name": "forked", "description": "Forked"}],
}
ADVERTISED = [AvailableCommand(name="skill", description="A skill")]


class Recorder(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append(record.getMessage())


LOG = Recorder()
logging.getLogger().addHandler(LOG)


class ShapeAgent:
    def __init__(self) -> None:
        self.conn: Any = None
        self.advertiser = CommandAdvertiser() if CommandAdvertiser else None
        self.count = 0
        self.setup_read = asyncio.Event()  # a setup handler runs (pipelined)
        self.bound = asyncio.Event()

    def bind(self) -> None:
        if self.advertiser is not None:
            self.advertiser.bind(self.conn).advertise(lambda: ADVERTISED)
        self.bound.set()

    def on_connect(self, conn: Any) -> None:
        self.conn = conn
        if SHAPE == "listen-twice":
            self.bind()
        elif SHAPE == "never-connected":
            self.conn = None

    async def initialize(self, protocol_version: int, **kwargs: Any) -> Any:
        if SHAPE == "pipelined":
            await self.setup_read.wait()
            self.bind()
        elif SHAPE in ("listen-twice-late", "never-connected"):
            self.bind()
        capabilities = acp.schema.AgentCapabilities(load_session=True)
        return acp.InitializeResponse(protocol_version=protocol_version, agent_capabilities=capabilities)

    async def setup(self, kind: str, cwd: str, session_id: str | None = None) -> str:
        if SHAPE == "pipelined":
            self.setup_read.set()
            await self.bound.wait()
        elif SHAPE == "late-bind" and not self.bound.is_set():
            self.bind()
        if session_id is None:
            self.count += 1
            session_id = f"s-{self.count}"
        if not SHAPE.startswith(("listen-twice", "never")):  # the SDK refused them before
            update = AvailableCommandsUpdate(session_update="available_commands_update", available_commands=OWN[kind])
            await self.conn.session_update(session_id=session_id, update=update)
        if cwd == "/fail":
            raise acp.RequestError.invalid_params({"cwd": cwd})
        return session_id

    async def new_session(self, cwd: str, **kwargs: Any) -> Any:
        return acp.NewSessionResponse(session_id=await self.setup("new", cwd))

    async def load_session(self, cwd: str, session_id: str, **kwargs: Any) -> Any:
        await self.setup("load", cwd, session_id)
        return acp.LoadSessionResponse()

    async def resume_session(self, cwd: str, session_id: str, **kwargs: Any) -> Any:
        await self.setup("resume", cwd, session_id)
        return acp.schema.ResumeSessionResponse()

    async def fork_session(self, cwd: str, session_id: str, **kwargs: Any) -> Any:
        return acp.schema.ForkSessionResponse(session_id=await self.setup("fork", cwd))

    async def prompt(self, prompt: Any, session_id: str, **kwargs: Any) -> Any:
        return acp.PromptResponse(stop_reason="end_turn")

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        return None

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if method == "log":
            return {"log": LOG.seen}
        raise acp.RequestError.method_not_found(method)


async def main() -> None:
    if not SHAPE.startswith("listen-twice"):
        await acp.run_agent(ShapeAgent(), use_unstable_protocol=True)
        return
    reader, writer = await acp.stdio_streams()
    conn = acp.AgentSideConnection(ShapeAgent(), writer, reader, use_unstable_protocol=True)
    await conn.listen()  # the SDK already listens: this is a second receive loop


if __name__ == "__main__":
    asyncio.run(main())
