# Part of the case: AgentPool's shape, a dataclass agent holding its client, advertising
# its skills at initialize
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from acp import Agent as ACPAgent
from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser

if TYPE_CHECKING:
    from acp import Client


@dataclass
class PoolACPAgent(ACPAgent):
    """Bridges a pool of agents to ACP."""

    client: Client
    """ACP connection for client communication."""

    skills: list[str] = field(default_factory=list)

    command_advertiser: CommandAdvertiser = field(
        default_factory=CommandAdvertiser, init=False, repr=False
    )

    def get_skill_commands(self) -> list[AvailableCommand]:
        return [AvailableCommand(name=skill, description=f"Run the {skill} skill") for skill in self.skills]

    async def initialize(self, params: Any) -> InitializeResponse:
        self.command_advertiser.bind(self.client)
        self.command_advertiser.advertise(self.get_skill_commands)
        return InitializeResponse(
            protocol_version=1,
            agent_capabilities=AgentCapabilities(load_session=True),
        )

    async def new_session(self, params: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="session-1")
