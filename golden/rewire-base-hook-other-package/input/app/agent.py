# Case: the connection arrives in a base class of another package (its on_connect stores
# it): the advertiser is created and bound first thing in initialize, from that attribute.
from __future__ import annotations

import uuid
from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse

from framework.base import BaseAgent


class AppAgent(BaseAgent):
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse.create(
            protocol_version=min(protocol_version, PROTOCOL_VERSION),
            slash_commands=[AvailableCommand(name="web", description="Search the web")],
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=uuid.uuid4().hex)
