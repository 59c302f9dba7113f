# Case: tests reading the removed field as an attribute: those asserting only it go (ACP008); a helper reading it is reported (ACP004); a test of an agent's initialize result is rewritten to test what every session is advertised
import pytest

from acp.schema import AgentCapabilities, InitializeResponse


def _names(caps: AgentCapabilities) -> list[str]:
    return [cmd.name for cmd in caps.slash_commands]


@pytest.mark.asyncio
async def test_initialize_exposes_skill_commands(acp_agent):
    response = await acp_agent.initialize(protocol_version=1)
    assert response.agent_capabilities.slash_commands
    caps = response.agent_capabilities
    assert {cmd.name for cmd in caps.slash_commands} >= {"plan", "web"}


def test_capabilities_default_is_empty():
    caps = AgentCapabilities(load_session=True)
    assert caps.slash_commands == []
    assert getattr(caps, "slash_commands") == []


def test_create_response_has_no_commands():
    init = InitializeResponse.create(protocol_version=1, name="agentpool", version="1.0")
    assert _names(init.agent_capabilities) == []
