# Case: settings of the field fix cannot take out alone (a shared line, a chained or unpacking assignment, a setattr inside an expression, outside an agent): kept with a TODO, ACP005 says why
from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse, NewSessionResponse

WEB = [AvailableCommand(name="web", description="Search the web")]


class SharedLineAgent:
    def __init__(self) -> None:
        self.conn = None

    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        caps = AgentCapabilities(load_session=True)
        # acp-migrate: TODO: advertise `WEB` per session (acp-migrate rules ACP005)
        caps.slash_commands = WEB; caps.load_session = protocol_version > 1
        return InitializeResponse(protocol_version=PROTOCOL_VERSION, agent_capabilities=caps)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="shared")


class ChainedAgent:
    def __init__(self) -> None:
        self.conn = None

    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        caps = AgentCapabilities(load_session=True)
        # acp-migrate: TODO: advertise `list(WEB)` per session (acp-migrate rules ACP005)
        self.advertised = caps.slash_commands = list(WEB)
        # acp-migrate: TODO: advertise `list(WEB)` per session (acp-migrate rules ACP005)
        caps.load_session, caps.slash_commands = True, list(WEB)
        return InitializeResponse(protocol_version=PROTOCOL_VERSION, agent_capabilities=caps)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="chained")


class ExpressionAgent:
    def __init__(self) -> None:
        self.conn = None

    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        caps = AgentCapabilities(load_session=True)
        # acp-migrate: TODO: advertise `WEB` per session (acp-migrate rules ACP005)
        done = [setattr(caps, "slash_commands", WEB)]
        return InitializeResponse(protocol_version=PROTOCOL_VERSION, agent_capabilities=caps, field_meta={"done": done})

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="expression")


def legacy_capabilities(caps: AgentCapabilities) -> AgentCapabilities:
    # acp-migrate: TODO: advertise `WEB` per session (acp-migrate rules ACP005)
    setattr(caps, "slash_commands", WEB)
    return caps
