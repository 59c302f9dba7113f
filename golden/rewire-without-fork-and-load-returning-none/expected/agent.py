# Case: no fork_session (nothing to add); load_session returns None and falls off its end
from typing import Any

from acp.schema import AgentCapabilities, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


class PlainAgent:
    def __init__(self, registry) -> None:
        self.registry = registry
        self.conn = None
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(self.registry.commands)
        capabilities = AgentCapabilities.create(load_session=True)
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=capabilities)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        if not cwd:
            return NewSessionResponse(session_id="default")
        return NewSessionResponse(session_id=cwd)

    async def load_session(self, cwd: str, session_id: str, **kwargs: Any) -> None:
        if session_id == "gone":
            return
        self.registry.restore(session_id)
