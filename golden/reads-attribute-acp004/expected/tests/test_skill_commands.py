# Case: tests reading the removed field as an attribute: those asserting only it go (ACP008); a helper reading it is reported (ACP004); a test of an agent's initialize result is rewritten to test what every session is advertised
import pytest

from acp.schema import AgentCapabilities, InitializeResponse


def _names(caps: AgentCapabilities) -> list[str]:
    return [cmd.name for cmd in caps.slash_commands]


@pytest.mark.asyncio
async def test_sessions_advertise_skill_commands(acp_agent):
    await acp_agent.initialize(protocol_version=1)
    assert acp_agent.command_advertiser.commands()
    assert {cmd.name for cmd in acp_agent.command_advertiser.commands()} >= {"plan", "web"}


def test_create_response_has_no_commands():
    init = InitializeResponse.create(protocol_version=1, name="agentpool", version="1.0")
    assert _names(init.agent_capabilities) == []
