# Case: an agent given a real connection of the SDK is rewritten as one given a Mock():
# the read of its initialize result becomes what every session is advertised. A test
# that asks through the client side of the wire is not an agent's: its commands come in
# notifications, so it is removed as a test of the field, not rewritten
import asyncio

import pytest

from acp.core import AgentSideConnection
from myagent.agent import SkillAgent


@pytest.fixture
def pipes():
    """Two in-memory streams, as a pair of processes would have."""
    return asyncio.StreamReader(), asyncio.StreamReader()


@pytest.mark.asyncio
async def test_sessions_advertise_the_skills(pipes):
    """The skills are advertised per session."""
    agent = SkillAgent(["web", "plan"])
    conn = AgentSideConnection(agent, *pipes, listening=False)
    await agent.initialize(protocol_version=1)
    assert conn is not None
    names = [command.name for command in agent.command_advertiser.commands()]
    assert names == ["web", "plan"]
