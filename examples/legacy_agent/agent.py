"""A legacy ACP agent that advertises its slash commands at ``initialize``.

This is the pre-RFC-0032 shape acp-migrate rewrites: the skill commands travel in
the non-spec ``agentCapabilities.slashCommands`` field. Like AgentPool's sessions, a
new session also sends its own list (``/help``) from a background task, an
``available_commands_update`` that a client takes as that session's complete list.

Run it with ``python examples/legacy_agent/agent.py``; it speaks ACP on stdio.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp import PROTOCOL_VERSION, Client, RequestError, run_agent, update_agent_message_text
from acp.helpers import update_available_commands
from acp.schema import (
    AuthenticateResponse,
    AvailableCommand,
    AvailableCommandInput,
    CloseSessionResponse,
    ForkSessionResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PromptResponse,
    ResumeSessionResponse,
    TextContentBlock,
    UnstructuredCommandInput,
)

if TYPE_CHECKING:
    from acp.schema import AcpMcpServer, ClientCapabilities, HttpMcpServer, Implementation, McpServerStdio, SseMcpServer

    McpServers = list[HttpMcpServer | SseMcpServer | AcpMcpServer | McpServerStdio]

# Make the vendored schema importable however this file is loaded.
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from schema import InitializeResponse  # noqa: E402

logger = logging.getLogger("legacy_agent")


class LegacyACPAgent:
    """Echo agent with a few skill slash commands."""

    def __init__(self) -> None:
        self._conn: Client | None = None
        self._sessions: dict[str, str] = {}  # session id -> cwd
        self._tasks: set[asyncio.Task[None]] = set()

    def on_connect(self, conn: Client) -> None:
        self._conn = conn

    def get_skill_commands(self) -> list[AvailableCommand]:
        """Return the slash commands this agent supports."""
        return [
            AvailableCommand(
                name="web",
                description="Search the web for information",
                input=AvailableCommandInput(root=UnstructuredCommandInput(hint="query to search for")),
            ),
            AvailableCommand(name="test", description="Run tests for the current project"),
            AvailableCommand(
                name="plan",
                description="Create a detailed implementation plan",
                input=AvailableCommandInput(root=UnstructuredCommandInput(hint="description of what to plan")),
            ),
        ]

    def session_commands(self) -> list[AvailableCommand]:
        """The commands a session has of its own, besides the skills."""
        return [AvailableCommand(name="help", description="Show what this agent can do")]

    async def _advertise_session(self, session_id: str) -> None:
        assert self._conn is not None
        await self._conn.session_update(session_id, update_available_commands(self.session_commands()))

    async def initialize(
        self,
        protocol_version: int,
        client_capabilities: ClientCapabilities | None = None,
        client_info: Implementation | None = None,
        **kwargs: Any,
    ) -> InitializeResponse:
        skill_commands = self.get_skill_commands()
        return InitializeResponse.create(
            protocol_version=min(protocol_version, PROTOCOL_VERSION),
            name="legacy-agent",
            title="Legacy ACP Agent",
            version="0.1.0",
            load_session=True,
            resume_session=True,
            fork_session=True,
            close_session=True,
            slash_commands=skill_commands,
        )

    async def authenticate(self, method_id: str, **kwargs: Any) -> AuthenticateResponse | None:
        return AuthenticateResponse()

    async def new_session(
        self,
        cwd: str,
        additional_directories: list[str] | None = None,
        mcp_servers: McpServers | None = None,
        **kwargs: Any,
    ) -> NewSessionResponse:
        session_id = str(uuid.uuid4())
        self._sessions[session_id] = cwd
        # As AgentPool's sessions do: the session's own list, from a background task.
        task = asyncio.create_task(self._advertise_session(session_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return NewSessionResponse(session_id=session_id)

    async def load_session(
        self,
        cwd: str,
        session_id: str,
        mcp_servers: McpServers | None = None,
        additional_directories: list[str] | None = None,
        **kwargs: Any,
    ) -> LoadSessionResponse | None:
        # No persistence: known or unknown ids are simply (re)registered.
        self._sessions[session_id] = cwd
        return LoadSessionResponse()

    async def resume_session(
        self,
        session_id: str,
        cwd: str,
        additional_directories: list[str] | None = None,
        mcp_servers: McpServers | None = None,
        **kwargs: Any,
    ) -> ResumeSessionResponse:
        self._sessions[session_id] = cwd
        return ResumeSessionResponse()

    async def fork_session(
        self,
        session_id: str,
        cwd: str,
        additional_directories: list[str] | None = None,
        mcp_servers: McpServers | None = None,
        **kwargs: Any,
    ) -> ForkSessionResponse:
        self._require_session(session_id)
        forked_id = str(uuid.uuid4())
        self._sessions[forked_id] = cwd
        return ForkSessionResponse(session_id=forked_id)

    async def close_session(self, session_id: str, **kwargs: Any) -> CloseSessionResponse | None:
        self._sessions.pop(session_id, None)
        return CloseSessionResponse()

    async def prompt(self, session_id: str, prompt: list[Any], **kwargs: Any) -> PromptResponse:
        self._require_session(session_id)
        text = "".join(block.text for block in prompt if isinstance(block, TextContentBlock)).strip()
        reply = self._run_command(text) if text.startswith("/") else f"echo: {text}"
        assert self._conn is not None
        await self._conn.session_update(session_id, update_agent_message_text(reply))
        return PromptResponse(stop_reason="end_turn")

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        logger.info("cancel requested for %s", session_id)

    def _run_command(self, text: str) -> str:
        name, _, arg = text[1:].partition(" ")
        if name not in {command.name for command in self.get_skill_commands()}:
            return f"unknown command: /{name}"
        return f"ran /{name}" + (f" with {arg.strip()!r}" if arg.strip() else "")

    def _require_session(self, session_id: str) -> None:
        if session_id not in self._sessions:
            raise RequestError.invalid_params({"sessionId": session_id, "details": "unknown session"})


async def main() -> None:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    # fork/resume/close are "unstable" in SDK 0.12.1 and must be opted into.
    await run_agent(LegacyACPAgent(), use_unstable_protocol=True)


if __name__ == "__main__":
    asyncio.run(main())
