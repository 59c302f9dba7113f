# Case: the local that fed slash_commands= is also read elsewhere in the function, so only the keyword goes
import logging
from typing import Any

from acp.schema import InitializeResponse

logger = logging.getLogger(__name__)


class SkillAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        skill_commands = self.get_skill_commands()
        logger.info("loaded %d skill commands", len(skill_commands))
        # acp-migrate: TODO: advertise `skill_commands` per session; not moved automatically: it uses `skill_commands`, which only exists inside `initialize`
        return InitializeResponse.create(
            protocol_version=protocol_version,
            name="skill-agent",
            version="1.0.0",
        )
