# Case: RFC-0032 shape: a local feeds slash_commands= in InitializeResponse.create; keyword and local go
from __future__ import annotations

from importlib.metadata import version as _version
from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import AvailableCommand, InitializeResponse


class AgentPoolACPAgent:
    """ACP agent exposing an AgentPool node."""

    def get_skill_commands(self) -> list[AvailableCommand]:
        return [skill.to_acp_command() for skill in self.skills.values()]

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        version = min(protocol_version, PROTOCOL_VERSION)

        # acp-migrate: TODO: advertise `self.get_skill_commands()` per session; not moved automatically: class `AgentPoolACPAgent` has no session setup handler
        return InitializeResponse.create(
            protocol_version=version,
            name="agentpool",
            title="AgentPool",
            version=_version("agentpool"),
            load_session=True,
        )
