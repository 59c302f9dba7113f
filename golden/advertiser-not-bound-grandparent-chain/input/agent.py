# Part of the case: the application's agent creates the advertiser and gives it the list.
from __future__ import annotations

from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import AvailableCommand, InitializeResponse

from acp_migrate.runtime import CommandAdvertiser
from mid import ToolAgent


class AppAgent(ToolAgent):
    def __init__(self) -> None:
        self.command_advertiser = CommandAdvertiser()

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        self.command_advertiser.advertise([AvailableCommand(name="web", description="Search the web")])
        return InitializeResponse(protocol_version=min(protocol_version, PROTOCOL_VERSION))
