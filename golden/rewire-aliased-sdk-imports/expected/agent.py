# Case: aliased SDK imports: schema module alias, AvailableCommandsUpdate alias, helpers alias
from typing import Any

import acp.helpers as helpers
import acp.schema as schema
from acp.schema import AvailableCommandsUpdate as CommandsUpdate
from acp_migrate.runtime import CommandAdvertiser


class AliasedAgent:
    def __init__(self) -> None:
        self._conn = None
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn) -> None:
        self._conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> schema.InitializeResponse:
        self.command_advertiser.bind(self._conn)
        self.command_advertiser.advertise(self.catalog)
        caps = schema.AgentCapabilities.create(load_session=True)
        return schema.InitializeResponse(protocol_version=protocol_version, agent_capabilities=caps)

    async def new_session(self, cwd: str, **kwargs: Any) -> schema.NewSessionResponse:
        await self._conn.session_update(
            "s1", CommandsUpdate(session_update="available_commands_update", available_commands=self.catalog())
        )
        return schema.NewSessionResponse(session_id="s1")

    async def refresh(self, session_id: str) -> None:
        await self._conn.session_update(session_id, helpers.update_available_commands(self.catalog()))

    def catalog(self) -> list[schema.AvailableCommand]:
        return [schema.AvailableCommand(name="web", description="Search")]
