# Case: the connection arrives in a base class of another package (its on_connect stores
# it): the advertiser is created and bound first thing in initialize, from that attribute.
from __future__ import annotations

import uuid
from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser

from framework.base import BaseAgent


class AppAgent(BaseAgent):
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser = CommandAdvertiser().bind(self._conn)
        self.command_advertiser.advertise(
            lambda: [AvailableCommand(name="web", description="Search the web")]
        )
        return InitializeResponse.create(
            protocol_version=min(protocol_version, PROTOCOL_VERSION),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=uuid.uuid4().hex)
