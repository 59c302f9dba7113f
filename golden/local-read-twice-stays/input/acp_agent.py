# Case: the local that fed slash_commands= is also read elsewhere in the function: the list uses a local of initialize and cannot move; the local and the keyword stay, with a TODO above
import logging
from typing import Any

from acp.schema import InitializeResponse

logger = logging.getLogger(__name__)


class SkillAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        skill_commands = self.get_skill_commands()
        logger.info("loaded %d skill commands", len(skill_commands))
        return InitializeResponse.create(
            protocol_version=protocol_version,
            name="skill-agent",
            version="1.0.0",
            slash_commands=skill_commands,
        )
