# Case: removing the only field leaves a class body with just its docstring: no `pass` is added
from __future__ import annotations

import acp.schema
from pydantic import Field

from acp.schema import AvailableCommand


class AgentCapabilities(acp.schema.AgentCapabilities):
    """Vendored capabilities carrying the legacy command list."""

    slash_commands: list[AvailableCommand] = Field(default_factory=list, alias="slashCommands")


class InitializeResponse(acp.schema.InitializeResponse):
    """Vendored initialize response using the capabilities above."""

    agent_capabilities: AgentCapabilities = Field(default_factory=AgentCapabilities, alias="agentCapabilities")
