# Case: AgentPool's shape: a dataclass agent whose first field holds the connection (filled by a
# factory), request-object handlers with several returns, sessions that send their own lists
from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from acp import Agent as ACPAgent
from acp.schema import ForkSessionResponse, InitializeResponse, LoadSessionResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser
from acp_session import ACPSession
from skill_bridge import SkillBridge

if TYPE_CHECKING:
    from acp import Client
    from acp.schema import ForkSessionRequest, InitializeRequest, LoadSessionRequest, NewSessionRequest


@dataclass
class PoolAgent(ACPAgent):
    """Bridges a pool of agents to ACP."""

    PROTOCOL_VERSION: ClassVar = 1

    client: Client
    """ACP connection for client communication."""

    _: KW_ONLY

    load_skills: bool = True
    """Whether to load client-side skills."""

    _skill_bridge: Any = field(init=False, default_factory=SkillBridge)
    """Bridge for exposing skill commands as ACP slash commands."""

    command_advertiser: CommandAdvertiser = field(
        default_factory=CommandAdvertiser, init=False, repr=False
    )

    def __post_init__(self) -> None:
        self.tasks: set[Any] = set()
        self.sessions: dict[str, Any] = {}

    def get_skill_commands(self) -> list[Any] | None:
        return self._skill_bridge.get_available_commands() if self._skill_bridge else None

    async def initialize(self, params: InitializeRequest) -> InitializeResponse:
        """Initialize the agent and negotiate capabilities."""
        self.command_advertiser.bind(self.client)
        self.command_advertiser.advertise(self.get_skill_commands)
        version = min(params.protocol_version, self.PROTOCOL_VERSION)
        return InitializeResponse.create(
            protocol_version=version,
            name="pool",
            load_session=True,
        )

    async def new_session(self, params: NewSessionRequest) -> NewSessionResponse:
        session = self.sessions.setdefault(params.cwd, ACPSession(self.client, params.cwd))
        try:
            session_id = params.cwd
        except Exception:
            raise
        else:
            self.tasks.add(session.send_available_commands_update())
            return NewSessionResponse(
                session_id=session_id,
                # the handler's own comment stays with its argument
                config_options=None,
            )

    async def load_session(self, params: LoadSessionRequest) -> LoadSessionResponse:
        session = self.sessions.get(params.session_id)
        if not session:
            return LoadSessionResponse()
        try:
            self.tasks.add(session.send_available_commands_update())
            return LoadSessionResponse(config_options=[])
        except Exception:
            return LoadSessionResponse()

    async def fork_session(self, params: ForkSessionRequest) -> ForkSessionResponse:
        return ForkSessionResponse(session_id=params.session_id + "-fork")
