# Case: **kwargs that may carry the field but are built in ways fix cannot follow: kept with a TODO, ACP005 says why
from typing import Any

from acp import PROTOCOL_VERSION
from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse, NewSessionResponse

DEFAULTS = {"load_session": True, "slash_commands": [AvailableCommand(name="web", description="Search")]}


class UpdatedKwargsAgent:
    def __init__(self) -> None:
        self.conn = None

    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        options: dict[str, Any] = {"load_session": True}
        options.update(slash_commands=[AvailableCommand(name="test", description="Run the tests")])
        # acp-migrate: TODO: advertise `**options` per session (acp-migrate rules ACP005)
        return InitializeResponse(protocol_version=PROTOCOL_VERSION, agent_capabilities=AgentCapabilities(**options))

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="updated")


class ModuleDefaultsAgent:
    def __init__(self) -> None:
        self.conn = None

    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        # acp-migrate: TODO: advertise `**DEFAULTS` per session (acp-migrate rules ACP005)
        return InitializeResponse(protocol_version=PROTOCOL_VERSION, agent_capabilities=AgentCapabilities(**DEFAULTS))

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="defaults")


class CopiedKwargsAgent:
    def __init__(self) -> None:
        self.conn = None

    def on_connect(self, conn) -> None:
        self.conn = conn

    def base_options(self) -> dict[str, Any]:
        return {"load_session": True}

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        options = self.base_options()
        options["slash_commands"] = [AvailableCommand(name="plan", description="Plan the work")]
        # acp-migrate: TODO: advertise `[AvailableCommand(…` per session (acp-migrate rules ACP005)
        return InitializeResponse(protocol_version=PROTOCOL_VERSION, agent_capabilities=AgentCapabilities(**options))

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="copied")


class ForwardingAgent:
    """The caller's keywords are passed on: nothing says they hold the field, nothing is reported."""

    def __init__(self) -> None:
        self.conn = None

    def on_connect(self, conn) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(protocol_version=PROTOCOL_VERSION, agent_capabilities=AgentCapabilities(**kwargs))

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="forwarding")
