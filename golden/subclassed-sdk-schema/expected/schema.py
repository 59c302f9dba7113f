# Case: vendored schema subclassing the SDK's models to add the legacy field; the emptied class body gets `pass`
from __future__ import annotations

import acp.schema
from pydantic import Field


class AgentCapabilities(acp.schema.AgentCapabilities):
    pass


class InitializeResponse(acp.schema.InitializeResponse):
    agent_capabilities: AgentCapabilities = Field(
        default_factory=AgentCapabilities, alias="agentCapabilities"
    )
