# Case: tests whose assertions are all about the removed field go whole, an emptied class with them; a test of an agent's initialize result is rewritten to test what every session is advertised

import pytest

from acp.schema import AgentCapabilities


@pytest.mark.asyncio
async def test_sessions_advertise_commands(acp_agent):
    """Every session is advertised the skill commands."""
    response = await acp_agent.initialize(protocol_version=1)
    assert response.agent_capabilities is not None
    names = [cmd.name for cmd in acp_agent.command_advertiser.commands()]
    assert "plan" in names, f"got {names}"


def test_load_session_flag():
    assert AgentCapabilities(load_session=True).load_session
