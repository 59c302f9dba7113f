"""One ACP session of the AgentPool-shaped example, as AgentPool's ``ACPSession``.

A session holds the connection and its own slash commands, which differ from
the skill commands the agent advertises at ``initialize``. It sends them with
:meth:`ACPSession.send_available_commands_update`, a complete
``available_commands_update`` for this session.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from acp import (
    Client,
    SessionNotification,
    update_agent_message_text,
    update_user_message_text,
)
from acp.schema import (
    AvailableCommand,
    AvailableCommandInput,
    AvailableCommandsUpdate,
    CommandInputHint,
)

logger = logging.getLogger(__name__)


def default_session_commands() -> list[AvailableCommand]:
    """The commands every session starts with."""
    return [
        AvailableCommand(name="help", description="List the commands of this session"),
        AvailableCommand(
            name="web",
            description="Search the web from this session",
            input=AvailableCommandInput(root=CommandInputHint(hint="what to look up")),
        ),
    ]


@dataclass
class ACPSession:
    """State of one session: where it works and which commands it offers."""

    session_id: str
    """Unique session identifier."""

    cwd: str
    """Working directory of the session."""

    client: Client
    """ACP connection to the client."""

    commands: list[AvailableCommand] = field(default_factory=default_session_commands)
    """This session's own slash commands."""

    def has_command(self, name: str) -> bool:
        return any(command.name == name for command in self.commands)

    async def send_available_commands_update(self) -> None:
        """Send the session's current commands to the client (a complete list)."""
        update = AvailableCommandsUpdate(
            sessionUpdate="available_commands_update",
            availableCommands=list(self.commands),
        )
        try:
            await self.client.sessionUpdate(SessionNotification(sessionId=self.session_id, update=update))
        except Exception:
            logger.exception("Failed to send available commands update")

    async def send_agent_message(self, text: str) -> None:
        update = update_agent_message_text(text)
        await self.client.sessionUpdate(SessionNotification(sessionId=self.session_id, update=update))

    async def replay_user_message(self, text: str) -> None:
        """Send a stored user message again, as ``session/load`` replays a conversation."""
        update = update_user_message_text(text)
        await self.client.sessionUpdate(SessionNotification(sessionId=self.session_id, update=update))
