"""Vendored ACP schema extensions for the legacy example agent.

Like AgentPool's ``src/acp/schema`` before RFC-0032, this module subclasses the
official SDK models to advertise slash commands at ``initialize`` time via a
non-spec ``agentCapabilities.slashCommands`` field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acp import schema
from acp.schema import (
    AvailableCommand,
    Implementation,
    McpCapabilities,
    PromptCapabilities,
    SessionCapabilities,
    SessionCloseCapabilities,
    SessionForkCapabilities,
    SessionResumeCapabilities,
)
from pydantic import Field

if TYPE_CHECKING:
    from collections.abc import Sequence


class AgentCapabilities(schema.AgentCapabilities):
    """Agent capabilities extended with initialize-time slash commands."""

    slash_commands: list[AvailableCommand] = Field(default_factory=list, alias="slashCommands")
    """Slash commands supported by the agent, advertised during initialize."""

    @classmethod
    def create(
        cls,
        *,
        load_session: bool = False,
        image: bool = False,
        audio: bool = False,
        embedded_context: bool = False,
        http_mcp: bool = False,
        sse_mcp: bool = False,
        resume_session: bool = False,
        fork_session: bool = False,
        close_session: bool = False,
        slash_commands: Sequence[AvailableCommand] | None = None,
    ) -> AgentCapabilities:
        """Create an instance of AgentCapabilities.

        Args:
            load_session: Whether the agent supports ``session/load``.
            image: Whether prompts may contain image content.
            audio: Whether prompts may contain audio content.
            embedded_context: Whether prompts may contain embedded resources.
            http_mcp: Whether the agent can connect to HTTP MCP servers.
            sse_mcp: Whether the agent can connect to SSE MCP servers.
            resume_session: Whether the agent supports ``session/resume``.
            fork_session: Whether the agent supports ``session/fork``.
            close_session: Whether the agent supports ``session/close``.
            slash_commands: Slash commands available to the client.
        """
        return cls(
            load_session=load_session,
            prompt_capabilities=PromptCapabilities(image=image, audio=audio, embedded_context=embedded_context),
            mcp_capabilities=McpCapabilities(http=http_mcp, sse=sse_mcp),
            session_capabilities=SessionCapabilities(
                resume=SessionResumeCapabilities() if resume_session else None,
                fork=SessionForkCapabilities() if fork_session else None,
                close=SessionCloseCapabilities() if close_session else None,
            ),
            slash_commands=list(slash_commands) if slash_commands else [],
        )


class InitializeResponse(schema.InitializeResponse):
    """Initialize response carrying the extended AgentCapabilities."""

    agent_capabilities: AgentCapabilities | None = Field(  # type: ignore[assignment]
        default_factory=AgentCapabilities, alias="agentCapabilities"
    )
    """Capabilities supported by the agent (re-declared so pydantic serialises the subclass)."""

    @classmethod
    def create(
        cls,
        *,
        protocol_version: int,
        name: str,
        title: str | None = None,
        version: str,
        load_session: bool = False,
        image: bool = False,
        audio: bool = False,
        embedded_context: bool = False,
        resume_session: bool = False,
        fork_session: bool = False,
        close_session: bool = False,
        slash_commands: Sequence[AvailableCommand] | None = None,
    ) -> InitializeResponse:
        """Create an instance of InitializeResponse.

        Args:
            protocol_version: Negotiated ACP protocol version.
            name: Programmatic name of the agent implementation.
            title: Human-readable name of the agent.
            version: Version of the agent implementation.
            load_session: Whether the agent supports ``session/load``.
            image: Whether prompts may contain image content.
            audio: Whether prompts may contain audio content.
            embedded_context: Whether prompts may contain embedded resources.
            resume_session: Whether the agent supports ``session/resume``.
            fork_session: Whether the agent supports ``session/fork``.
            close_session: Whether the agent supports ``session/close``.
            slash_commands: Slash commands advertised to the client at
                initialize time, before any session exists.
        """
        return cls(
            protocol_version=protocol_version,
            agent_info=Implementation(name=name, title=title, version=version),
            agent_capabilities=AgentCapabilities.create(
                load_session=load_session,
                image=image,
                audio=audio,
                embedded_context=embedded_context,
                resume_session=resume_session,
                fork_session=fork_session,
                close_session=close_session,
                slash_commands=slash_commands,
            ),
            auth_methods=[],
        )
