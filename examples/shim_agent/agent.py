"""A small ACP agent that advertises per-session slash commands with acp_migrate.runtime.

Run it with ``python agent.py`` once ``pip install 'acp-migrate[acp]'`` has
installed acp-migrate and the ACP SDK; it speaks ACP on stdio.

Every session gets /web and /test after its setup response. The first prompt in a
session unlocks /plan and /reset, sent as the session's new complete list; /reset
goes back to the start.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from acp import PROTOCOL_VERSION, run_agent, update_agent_message_text
from acp.schema import (
    AgentCapabilities,
    AvailableCommand,
    AvailableCommandsUpdate,
    CloseSessionResponse,
    InitializeResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PromptResponse,
    ResumeSessionResponse,
    SessionCapabilities,
    SessionCloseCapabilities,
    SessionResumeCapabilities,
    UnstructuredCommandInput,
)

from acp_migrate.runtime import CommandAdvertiser

START = [
    AvailableCommand(
        name="web",
        description="Search the web for information",
        input=UnstructuredCommandInput(hint="query to search for"),
    ),
    AvailableCommand(name="test", description="Run tests for the current project"),
]
UNLOCKED = [
    AvailableCommand(
        name="plan",
        description="Create a detailed implementation plan",
        input=UnstructuredCommandInput(hint="what to plan"),
    ),
    AvailableCommand(name="reset", description="Forget this session's extra commands"),
]


class ShimAgent:
    def __init__(self) -> None:
        self.commands = CommandAdvertiser().advertise(START)  # one per connection
        self._conn: Any = None
        self._unlocked: set[str] = set()  # sessions past their first prompt

    def on_connect(self, conn: Any) -> None:
        self._conn = conn
        self.commands.bind(conn)

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
        await asyncio.sleep(0)  # real agents await here (load skills, start MCP servers...)
        return NewSessionResponse(session_id=uuid.uuid4().hex)  # START follows the response

    async def load_session(self, cwd: str, session_id: str, **kwargs: Any) -> LoadSessionResponse:
        return LoadSessionResponse()  # the session's list follows the response again

    async def resume_session(self, cwd: str, session_id: str, **kwargs: Any) -> ResumeSessionResponse:
        return ResumeSessionResponse()

    async def prompt(self, prompt: list[Any], session_id: str, **kwargs: Any) -> PromptResponse:
        text = "".join(getattr(block, "text", "") for block in prompt).strip()
        if text == "/reset":
            self._unlocked.discard(session_id)
        else:
            self._unlocked.add(session_id)
        commands = START + (UNLOCKED if session_id in self._unlocked else [])
        # Always the complete list, sent as usual; an unchanged one is not sent again.
        update = AvailableCommandsUpdate(session_update="available_commands_update", available_commands=commands)
        await self._conn.session_update(session_id, update)
        await self._conn.session_update(session_id, update_agent_message_text(f"echo: {text}"))
        return PromptResponse(stop_reason="end_turn")

    async def close_session(self, session_id: str, **kwargs: Any) -> CloseSessionResponse:
        self._unlocked.discard(session_id)  # the advertiser forgets it when this succeeds
        return CloseSessionResponse()

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        return None


if __name__ == "__main__":
    asyncio.run(run_agent(ShimAgent(), use_unstable_protocol=True))  # resume and close are unstable in SDK 0.12
