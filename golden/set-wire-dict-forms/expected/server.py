# Case: wire initialize results built with dict(...) or by setting the key on "agentCapabilities": the key goes, the lists move
from typing import Any

from acp_migrate.runtime import CommandAdvertiser

WEB = {"name": "web", "description": "Search the web"}


class DictCallAgent:
    def __init__(self) -> None:
        self.conn = None
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> dict[str, Any]:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(lambda: [WEB])
        return {
            "protocolVersion": protocol_version,
            "agentCapabilities": dict(loadSession=True),
        }

    async def new_session(self, cwd: str, **kwargs: Any) -> dict[str, Any]:
        return {"sessionId": "dict-call"}


class OuterDictCallAgent:
    def __init__(self) -> None:
        self.conn = None
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> dict[str, Any]:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(lambda: [WEB])
        return dict(protocolVersion=protocol_version, agentCapabilities={"loadSession": False})

    async def new_session(self, cwd: str, **kwargs: Any) -> dict[str, Any]:
        return {"sessionId": "outer"}


class KeySetAgent:
    def __init__(self) -> None:
        self.conn = None
        self.command_advertiser = CommandAdvertiser()

    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> dict[str, Any]:
        self.command_advertiser.bind(self.conn)
        self.command_advertiser.advertise(lambda: [WEB])
        result: dict[str, Any] = {"protocolVersion": protocol_version, "agentCapabilities": {"loadSession": True}}
        return result

    async def new_session(self, cwd: str, **kwargs: Any) -> dict[str, Any]:
        return {"sessionId": "key-set"}


def parse_old_result(raw: dict[str, Any]) -> Any:
    """Old JSON read on the way in (a fixture): left alone."""
    from acp.schema import InitializeResponse

    return InitializeResponse.model_validate(dict(protocolVersion=1, agentCapabilities=dict(slashCommands=[])))
