# Case: sessions advertise their own list, which differs from the initialize list: the moved list
# is attached as `always`, the session's own updates stay; the advertiser merges the two
from typing import Any

from acp import Client
from acp.helpers import update_available_commands
from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser

SKILLS = [AvailableCommand(name="review", description="Review the diff")]


class MergingAgent:
    def __init__(self) -> None:
        self._conn: Client | None = None
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn: Client) -> None:
        self._conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self._conn)
        self.command_advertiser.advertise(SKILLS)
        return InitializeResponse.create(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        session_id = cwd
        own = [AvailableCommand(name="help", description="Show help")]
        await self._conn.session_update(session_id, update_available_commands(own))
        return NewSessionResponse(session_id=session_id)
