# Case: a local dict later placed under "agentCapabilities": the key set on it, or in its
# literal, advertises at initialize like a key written in place; a dict placed elsewhere is not
# the capabilities.
from typing import Any

from acp_migrate.runtime import CommandAdvertiser

COMMANDS = [{"name": "web", "description": "Search the web"}]


class SubscriptAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn
        self.command_advertiser = CommandAdvertiser().bind(conn)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> dict:
        self.command_advertiser.advertise(COMMANDS)
        caps = {"loadSession": True}
        return {"protocolVersion": protocol_version, "agentCapabilities": caps}


class LiteralAgent:
    def on_connect(self, conn) -> None:
        self.conn = conn
        self.command_advertiser = CommandAdvertiser().bind(conn)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> dict:
        self.command_advertiser.advertise(COMMANDS)
        capabilities = {"loadSession": True}
        result = {"protocolVersion": protocol_version}
        result["agentCapabilities"] = capabilities
        return result


def meta() -> dict:
    info = {"slashCommands": COMMANDS}  # not placed under "agentCapabilities": left
    return {"_meta": info}
