# Case: setup handlers assigned in the class body, a functools.partialmethod and an
# alias of it; the handlers are not edited, and every one of them advertises.
from __future__ import annotations

import functools
import uuid
from typing import Any

from acp import PROTOCOL_VERSION, Client
from acp.schema import (
    AgentCapabilities,
    AvailableCommand,
    InitializeResponse,
    LoadSessionResponse,
    NewSessionResponse,
    SessionCapabilities,
    SessionResumeCapabilities,
)
from acp_migrate.runtime import CommandAdvertiser

COMMANDS = [AvailableCommand(name="web", description="Search the web")]


class AliasAgent:
    def __init__(self) -> None:
        self._conn: Client | None = None
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn: Client) -> None:
        self._conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self._conn)
        self.command_advertiser.advertise(COMMANDS)
        return InitializeResponse(
            protocol_version=min(protocol_version, PROTOCOL_VERSION),
            agent_capabilities=AgentCapabilities(
                load_session=True,
                session_capabilities=SessionCapabilities(resume=SessionResumeCapabilities()),
            ),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=uuid.uuid4().hex)

    async def _restore(self, cwd: str, session_id: str, how: str, **kwargs: Any) -> LoadSessionResponse:
        self.last = (how, session_id)
        return LoadSessionResponse()

    load_session = functools.partialmethod(_restore, how="load")
    resume_session = load_session
