# Case: the connection reaches __init__ through a lambda factory and is kept as `self._client`:
# created in __init__, bound first thing in initialize (after its docstring), never in __init__
from typing import Any

from acp import AgentSideConnection
from acp.schema import AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


class LambdaAgent:
    def __init__(self, client, *, name: str) -> None:
        self.name = name
        self._client = client
        self.command_advertiser = CommandAdvertiser()

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        """Negotiate."""
        self.command_advertiser.bind(self._client)
        self.command_advertiser.advertise(self.commands)
        return InitializeResponse.create(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=cwd)

    def commands(self) -> list:
        return [AvailableCommand(name="web", description="Search")]


def serve(reader: Any, writer: Any) -> AgentSideConnection:
    return AgentSideConnection(lambda conn: LambdaAgent(conn, name="lambda"), writer, reader)
