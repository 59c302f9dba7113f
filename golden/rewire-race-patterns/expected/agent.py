# Case: race-prone updates in setup handlers stay as they are: the bound advertiser holds and merges them
import asyncio
from typing import Any

from acp.helpers import update_available_commands
from acp.schema import (
    AvailableCommand,
    AvailableCommandsUpdate,
    InitializeResponse,
    LoadSessionResponse,
    NewSessionResponse,
    ResumeSessionResponse,
)
from acp_migrate.runtime import CommandAdvertiser


class RacyAgent:
    def __init__(self) -> None:
        self._conn = None
        self.tasks = set()
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn) -> None:
        self._conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self._conn)
        self.command_advertiser.advertise(self.commands_for)
        return InitializeResponse.create(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        session_id = "new"
        await self._conn.session_update(session_id=session_id, update=update_available_commands(self.commands_for()))
        return NewSessionResponse(session_id=session_id)

    async def load_session(self, cwd: str, session_id: str, **kwargs: Any) -> LoadSessionResponse:
        asyncio.create_task(
            self._conn.session_update(
                session_id,
                AvailableCommandsUpdate(session_update="available_commands_update", available_commands=self.commands_for()),
            )
        )
        return LoadSessionResponse()

    async def resume_session(self, cwd: str, session_id: str, **kwargs: Any) -> ResumeSessionResponse:
        asyncio.ensure_future(self._conn.session_update(session_id, update_available_commands(self.commands_for())))
        await asyncio.sleep(0)
        return ResumeSessionResponse()

    async def prompt(self, prompt: list, session_id: str, **kwargs: Any) -> None:
        # After a turn the registry may have changed: a publish de-duplicates it.
        await self._conn.session_update(session_id, update_available_commands(self.commands_for()))

    def commands_for(self) -> list:
        return [AvailableCommand(name="web", description="Search")]
