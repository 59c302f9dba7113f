"""A small ACP agent that advertises per-session slash commands with acp_migrate.runtime.

Run it from a checkout with ``PYTHONPATH=. python examples/shim_agent/agent.py``
(or after ``pip install acp-migrate``); it speaks ACP on stdio.

Every session starts with /web and /test. The first prompt in a session unlocks
/plan, which is published as a new full list; /reset goes back to the start.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from acp import PROTOCOL_VERSION, run_agent, update_agent_message_text
from acp.schema import (
    AgentCapabilities,
    CloseSessionResponse,
    InitializeResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PromptResponse,
    ResumeSessionResponse,
    SessionCapabilities,
    SessionCloseCapabilities,
    SessionResumeCapabilities,
)

from acp_migrate.runtime import Command, CommandAdvertiser, TextInput

START = [
    Command(name="web", description="Search the web for information", input=TextInput(hint="query to search for")),
    Command(name="test", description="Run tests for the current project"),
]
PLAN = Command(name="plan", description="Create a detailed implementation plan", input=TextInput(hint="what to plan"))
RESET = Command(name="reset", description="Forget this session's extra commands")


class ShimAgent:
    def __init__(self) -> None:
        self.commands = CommandAdvertiser()  # one per connection
        self._conn: Any = None
        self._sessions: dict[str, list[Command]] = {}  # session id -> its commands

    def on_connect(self, conn: Any) -> None:
        self._conn = conn
        self.commands.bind(conn)  # also registers self.commands.observer

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(
            protocol_version=PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(
                load_session=True,
                session_capabilities=SessionCapabilities(
                    close=SessionCloseCapabilities(), resume=SessionResumeCapabilities()
                ),
            ),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        session_id = uuid.uuid4().hex
        self._sessions[session_id] = list(START)
        await asyncio.sleep(0)  # real agents await here (load skills, start MCP servers...)
        return self.commands.attach(NewSessionResponse(session_id=session_id), session_id, START)

    async def load_session(self, cwd: str, session_id: str, **kwargs: Any) -> LoadSessionResponse:
        commands = self._sessions.setdefault(session_id, list(START))
        return self.commands.attach(LoadSessionResponse(), session_id, commands)

    async def resume_session(self, cwd: str, session_id: str, **kwargs: Any) -> ResumeSessionResponse:
        commands = self._sessions.setdefault(session_id, list(START))
        return self.commands.attach(ResumeSessionResponse(), session_id, commands)

    async def prompt(self, prompt: list[Any], session_id: str, **kwargs: Any) -> PromptResponse:
        text = "".join(getattr(block, "text", "") for block in prompt).strip()
        commands = self._sessions.setdefault(session_id, list(START))
        if text == "/reset":
            commands[:] = START
        elif PLAN not in commands:
            commands += [PLAN, RESET]
        # Always the complete list; publishing an unchanged list sends nothing.
        await self.commands.publish(session_id, commands)
        await self._conn.session_update(session_id, update_agent_message_text(f"echo: {text}"))
        return PromptResponse(stop_reason="end_turn")

    async def close_session(self, session_id: str, **kwargs: Any) -> CloseSessionResponse:
        self._sessions.pop(session_id, None)  # the advertiser drops it when this succeeds
        return CloseSessionResponse()

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        return None


if __name__ == "__main__":
    asyncio.run(run_agent(ShimAgent(), use_unstable_protocol=True))  # resume and close are unstable in SDK 0.12
