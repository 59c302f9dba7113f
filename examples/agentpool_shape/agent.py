"""An ACP agent in the shape of AgentPool's server before RFC-0032, on SDK 0.6.3.

``initialize`` advertises the agent's skill commands in the non-spec
``agentCapabilities.slashCommands`` field of the schema this example owns
(``schema.py``). Each session (``session.py``) then sends its own, different
command list in an ``available_commands_update`` from a background task
scheduled by ``newSession``, ``loadSession`` and ``resumeSession``, but not by
``forkSession``: exactly what AgentPool did.

Run it with ``python examples/agentpool_shape/agent.py`` on
``agent-client-protocol==0.6.3``; it speaks ACP on stdin/stdout.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sys
import uuid
from collections.abc import Coroutine
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, ClassVar

from acp import (
    AgentSideConnection,
    AuthenticateRequest,
    CancelNotification,
    Client,
    InitializeRequest,
    LoadSessionRequest,
    LoadSessionResponse,
    NewSessionRequest,
    NewSessionResponse,
    PromptRequest,
    PromptResponse,
    RequestError,
    stdio_streams,
)
from acp.schema import (
    AvailableCommand,
    AvailableCommandInput,
    ClientCapabilities,
    CommandInputHint,
    TextContentBlock,
)

# Sibling modules: run as a script, this file's folder is on sys.path.
from schema import (
    ForkSessionRequest,
    ForkSessionResponse,
    InitializeResponse,
    ResumeSessionRequest,
    ResumeSessionResponse,
)
from session import ACPSession

logger = logging.getLogger("agentpool_shape")


@dataclass(frozen=True)
class Skill:
    """A skill the agent exposes as a slash command."""

    name: str
    description: str
    hint: str | None = None

    def to_command(self) -> AvailableCommand:
        command_input = AvailableCommandInput(root=CommandInputHint(hint=self.hint)) if self.hint else None
        return AvailableCommand(name=self.name, description=self.description, input=command_input)


DEFAULT_SKILLS = (
    Skill("web", "Search the web with the research skill", hint="query to search for"),
    Skill("review", "Review the changes in the working directory", hint="what to focus on"),
)


class TaskManager:
    """Keeps background tasks referenced until they finish, like AgentPool's TaskManager."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def create_task(self, coro: Coroutine[Any, Any, Any], *, name: str | None = None) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task


@dataclass
class AgentPoolShapeAgent:
    """ACP agent made per connection by a factory, as AgentPool's AgentPoolACPAgent."""

    PROTOCOL_VERSION: ClassVar[int] = 1

    client: Client
    """ACP connection for client communication."""

    skills: list[Skill] = field(default_factory=list)
    """Skills exposed as slash commands."""

    _: KW_ONLY

    load_skills: bool = True
    """Whether skills are offered at all."""

    sessions: dict[str, ACPSession] = field(default_factory=dict)
    """Open sessions by id."""

    store: dict[str, list[str]] = field(default_factory=dict)
    """Stored conversations (the user's prompts) by session id."""

    tasks: TaskManager = field(default_factory=TaskManager)
    """Background work started by the handlers."""

    def __post_init__(self) -> None:
        self.client_capabilities: ClientCapabilities | None = None
        self._initialized = False

    def get_skill_commands(self) -> list[AvailableCommand] | None:
        """The skill commands, or None when skills are off."""
        if not self.load_skills:
            return None
        return [skill.to_command() for skill in self.skills]

    async def initialize(self, params: InitializeRequest) -> InitializeResponse:
        """Negotiate the protocol version and advertise the agent's capabilities."""
        version = min(params.protocolVersion, self.PROTOCOL_VERSION)
        self.client_capabilities = params.clientCapabilities
        self._initialized = True
        skill_commands = self.get_skill_commands()
        return InitializeResponse.create(
            protocol_version=version,
            name="agentpool-shape",
            title="AgentPool-shaped example agent",
            version="0.1.0",
            load_session=True,
            embedded_context_prompts=True,
            image_prompts=True,
            slash_commands=skill_commands,
        )

    async def authenticate(self, params: AuthenticateRequest) -> None:
        logger.info("Authentication requested with %s", params.methodId)

    async def newSession(self, params: NewSessionRequest) -> NewSessionResponse:
        """Create a session; its commands follow from a background task."""
        self._require_initialized()
        session = self._create_session(str(uuid.uuid4()), params.cwd)
        self.store[session.session_id] = []
        # Scheduled to run after the response is returned.
        self.tasks.create_task(session.send_available_commands_update())
        return NewSessionResponse(sessionId=session.session_id)

    async def loadSession(self, params: LoadSessionRequest) -> LoadSessionResponse:
        """Load a stored session and replay its conversation to the client."""
        self._require_initialized()
        session = self.sessions.get(params.sessionId) or self._create_session(params.sessionId, params.cwd)
        history = self.store.get(params.sessionId)
        if history is None:
            logger.warning("No stored conversation for session %s", params.sessionId)
            return LoadSessionResponse()
        # Scheduled before the replay, so it runs while the replay awaits: the
        # commands reach the client before this response.
        self.tasks.create_task(session.send_available_commands_update())
        for text in history:
            await session.replay_user_message(text)
        return LoadSessionResponse()

    async def resumeSession(self, params: ResumeSessionRequest) -> ResumeSessionResponse:
        """Resume a session without replaying it (SDK 0.6.3 does not route session/resume)."""
        self._require_initialized()
        session = self.sessions.get(params.sessionId) or self._create_session(params.sessionId, params.cwd)
        self.tasks.create_task(session.send_available_commands_update())
        return ResumeSessionResponse()

    async def forkSession(self, params: ForkSessionRequest) -> ForkSessionResponse:
        """Fork a session with a copy of its conversation (SDK 0.6.3 does not route session/fork)."""
        self._require_initialized()
        if params.sessionId not in self.sessions:
            raise RequestError.invalid_params({"sessionId": params.sessionId, "details": "unknown session"})
        forked = self._create_session(str(uuid.uuid4()), params.cwd)
        self.store[forked.session_id] = list(self.store.get(params.sessionId, []))
        return ForkSessionResponse(sessionId=forked.session_id)

    async def prompt(self, params: PromptRequest) -> PromptResponse:
        """Answer a prompt; a leading ``/name`` runs a session or skill command."""
        session = self.sessions.get(params.sessionId)
        if session is None:
            raise RequestError.invalid_params({"sessionId": params.sessionId, "details": "unknown session"})
        text = "".join(block.text for block in params.prompt if isinstance(block, TextContentBlock)).strip()
        self.store.setdefault(session.session_id, []).append(text)
        await session.send_agent_message(self._reply(session, text))
        return PromptResponse(stopReason="end_turn")

    async def cancel(self, params: CancelNotification) -> None:
        logger.info("Cancel requested for %s", params.sessionId)

    def _create_session(self, session_id: str, cwd: str) -> ACPSession:
        session = ACPSession(session_id=session_id, cwd=cwd, client=self.client)
        self.sessions[session_id] = session
        return session

    def _reply(self, session: ACPSession, text: str) -> str:
        if not text.startswith("/"):
            return f"echo: {text}"
        name, _, argument = text[1:].partition(" ")
        if session.has_command(name):
            return f"ran session command /{name} {argument}".rstrip()
        if any(command.name == name for command in self.get_skill_commands() or []):
            return f"ran skill /{name} {argument}".rstrip()
        return f"unknown command: /{name}"

    def _require_initialized(self) -> None:
        if not self._initialized:
            raise RuntimeError("Agent not initialized")


async def main() -> None:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    reader, writer = await stdio_streams()
    # The SDK calls the factory with the connection, as AgentPool's server did.
    create_agent = functools.partial(AgentPoolShapeAgent, skills=list(DEFAULT_SKILLS))
    async with AgentSideConnection(create_agent, writer, reader):
        await asyncio.Event().wait()  # serve until the process is stopped


if __name__ == "__main__":
    asyncio.run(main())
