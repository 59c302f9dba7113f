"""The ACP schema this example owns, as AgentPool's ``src/acp/schema`` before RFC-0032.

It subclasses the models of the official SDK 0.6.3 (whose fields are camelCase):

- ``AgentCapabilities`` gains the non-spec ``slash_commands`` field
  (``"slashCommands"`` on the wire) and a ``create`` classmethod;
- ``InitializeResponse.create`` takes ``slash_commands`` and forwards it to
  ``AgentCapabilities.create``;
- ``session/resume`` and ``session/fork`` have no models in SDK 0.6.3, so their
  requests and responses are declared here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from acp import schema
from acp.schema import (
    AuthMethod,
    AvailableCommand,
    HttpMcpServer,
    Implementation,
    McpCapabilities,
    PromptCapabilities,
    SseMcpServer,
    StdioMcpServer,
)
from pydantic import Field

McpServer = HttpMcpServer | SseMcpServer | StdioMcpServer


class AgentCapabilities(schema.AgentCapabilities):
    """Capabilities supported by the agent, advertised during initialization."""

    slash_commands: list[AvailableCommand] = Field(default_factory=list, alias="slashCommands")
    """Slash commands the client can invoke. Empty list means no commands available."""

    @classmethod
    def create(
        cls,
        load_session: bool = False,
        http_mcp_servers: bool = False,
        sse_mcp_servers: bool = False,
        audio_prompts: bool = False,
        embedded_context_prompts: bool = False,
        image_prompts: bool = False,
        slash_commands: list[AvailableCommand] | None = None,
    ) -> AgentCapabilities:
        """Create an instance of AgentCapabilities.

        Args:
            load_session: Whether the agent supports ``session/load``.
            http_mcp_servers: Whether the agent supports HTTP MCP servers.
            sse_mcp_servers: Whether the agent supports SSE MCP servers.
            audio_prompts: Whether the agent supports audio prompts.
            embedded_context_prompts: Whether the agent supports embedded context prompts.
            image_prompts: Whether the agent supports image prompts.
            slash_commands: Available slash commands exposed by the agent.
        """
        return cls(
            loadSession=load_session,
            mcpCapabilities=McpCapabilities(http=http_mcp_servers, sse=sse_mcp_servers),
            promptCapabilities=PromptCapabilities(
                audio=audio_prompts,
                embeddedContext=embedded_context_prompts,
                image=image_prompts,
            ),
            slash_commands=slash_commands or [],
        )


class InitializeResponse(schema.InitializeResponse):
    """Response to ``initialize``, carrying this module's AgentCapabilities."""

    agentCapabilities: AgentCapabilities | None = None  # type: ignore[assignment]
    """Capabilities supported by the agent (re-declared so pydantic serialises the subclass)."""

    @classmethod
    def create(
        cls,
        name: str,
        title: str,
        version: str,
        protocol_version: int,
        load_session: bool = False,
        http_mcp_servers: bool = False,
        sse_mcp_servers: bool = False,
        audio_prompts: bool = False,
        embedded_context_prompts: bool = False,
        image_prompts: bool = False,
        auth_methods: Sequence[AuthMethod] | None = None,
        slash_commands: Sequence[AvailableCommand] | None = None,
    ) -> InitializeResponse:
        """Create an instance of InitializeResponse.

        Args:
            name: The name of the agent.
            title: The title of the agent.
            version: The version of the agent.
            protocol_version: The negotiated protocol version.
            load_session: Whether the agent supports ``session/load``.
            http_mcp_servers: Whether the agent supports HTTP MCP servers.
            sse_mcp_servers: Whether the agent supports SSE MCP servers.
            audio_prompts: Whether the agent supports audio prompts.
            embedded_context_prompts: Whether the agent supports embedded context prompts.
            image_prompts: Whether the agent supports image prompts.
            auth_methods: The authentication methods supported by the agent.
            slash_commands: Available slash commands exposed by the agent.
        """
        caps = AgentCapabilities.create(
            load_session=load_session,
            http_mcp_servers=http_mcp_servers,
            sse_mcp_servers=sse_mcp_servers,
            audio_prompts=audio_prompts,
            embedded_context_prompts=embedded_context_prompts,
            image_prompts=image_prompts,
            slash_commands=list(slash_commands) if slash_commands else None,
        )
        return cls(
            agentInfo=Implementation(name=name, title=title, version=version),
            protocolVersion=protocol_version,
            agentCapabilities=caps,
            authMethods=list(auth_methods or []),
        )


class ResumeSessionRequest(schema.BaseModel):
    """Parameters of ``session/resume``: continue a session without replaying it."""

    cwd: str
    sessionId: str
    mcpServers: list[McpServer] = Field(default_factory=list)


class ResumeSessionResponse(schema.BaseModel):
    """Result of ``session/resume``."""

    field_meta: Any | None = Field(default=None, alias="_meta")


class ForkSessionRequest(schema.BaseModel):
    """Parameters of ``session/fork``: a new session from an existing one."""

    cwd: str
    sessionId: str
    """The session to fork."""
    mcpServers: list[McpServer] = Field(default_factory=list)


class ForkSessionResponse(schema.BaseModel):
    """Result of ``session/fork``."""

    field_meta: Any | None = Field(default=None, alias="_meta")
    sessionId: str
    """The id of the new, forked session."""
