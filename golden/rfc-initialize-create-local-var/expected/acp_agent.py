# Case: RFC-0032 shape: a local feeds slash_commands= in InitializeResponse.create; keyword and local go, the local's value moves into new_session
from __future__ import annotations

from importlib.metadata import version as _version
from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


class AgentPoolACPAgent:
    """ACP agent exposing an AgentPool node."""

    def on_connect(self, conn) -> None:
        self._conn = conn
        self.command_advertiser = CommandAdvertiser().bind(conn)

    def get_skill_commands(self) -> list[AvailableCommand]:
        return [skill.to_acp_command() for skill in self.skills.values()]

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.advertise(self.get_skill_commands)
        version = min(protocol_version, PROTOCOL_VERSION)

        return InitializeResponse.create(
            protocol_version=version,
            name="agentpool",
            title="AgentPool",
            version=_version("agentpool"),
            load_session=True,
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=self.sessions.open(cwd))
