# Case (negative): tests asserting that slash_commands is absent from the initialize response
import pytest

from acp.schema import AgentCapabilities


@pytest.mark.asyncio
async def test_initialize_has_no_slash_commands(acp_agent):
    response = await acp_agent.initialize(protocol_version=1)
    data = response.agent_capabilities.model_dump()
    assert "slash_commands" not in data
    assert not hasattr(response.agent_capabilities, "slash_commands")


def test_dump_by_alias_has_no_slash_commands():
    caps = AgentCapabilities(load_session=True)
    dumped = caps.model_dump(by_alias=True)
    assert "slashCommands" not in dumped
    assert not hasattr(caps, "slash_commands")
