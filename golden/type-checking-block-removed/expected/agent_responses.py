# Case: the TYPE_CHECKING block only served the removed parameter: the block goes, then the TYPE_CHECKING import
from __future__ import annotations

import logging

from pydantic import BaseModel, Field

from acp.schema import AgentCapabilities, Implementation

logger = logging.getLogger(__name__)


class InitializeResponse(BaseModel):
    """Response to the `initialize` method."""

    protocol_version: int = Field(alias="protocolVersion")
    agent_capabilities: AgentCapabilities = Field(alias="agentCapabilities")
    agent_info: Implementation | None = Field(default=None, alias="agentInfo")

    @classmethod
    def create(
        cls,
        protocol_version: int,
        agent_info: Implementation,
        load_session: bool = False,
    ) -> InitializeResponse:
        logger.debug("initialize response for %s", agent_info.name)
        caps = AgentCapabilities(load_session=load_session)
        return cls(protocol_version=protocol_version, agent_capabilities=caps, agent_info=agent_info)
