# Case: initialize advertises the list only under a condition: moving it into every session
# would change what clients get, so the code stays, with a TODO above each place
from typing import Any

from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse, NewSessionResponse

SKILLS = [AvailableCommand(name="review", description="Review the diff")]


class ConditionalAgent:
    def __init__(self, skills_enabled: bool) -> None:
        self.skills_enabled = skills_enabled

    def on_connect(self, conn: Any) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        caps = AgentCapabilities(load_session=True)
        if self.skills_enabled:
            # acp-migrate: TODO: advertise `SKILLS` per session (acp-migrate rules ACP005)
            caps = AgentCapabilities(load_session=True, slash_commands=SKILLS)
        # acp-migrate: TODO: advertise `SKILLS` per session (acp-migrate rules ACP005)
        return InitializeResponse(
            protocol_version=protocol_version,
            agent_capabilities=caps if caps else AgentCapabilities(slash_commands=SKILLS),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=cwd)
