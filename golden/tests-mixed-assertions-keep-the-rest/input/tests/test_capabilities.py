# Case: tests that assert other things too keep them; only their statements about the field go
from acp.schema import AgentCapabilities, AvailableCommand


def test_capabilities_flags():
    command = AvailableCommand(name="plan", description="Create a plan")
    caps = AgentCapabilities(load_session=True, slash_commands=[command])
    assert caps.load_session is True
    assert caps.slash_commands == [command]
    assert caps.prompt_capabilities is None


async def test_initialize(acp_agent):
    response = await acp_agent.initialize(protocol_version=1)
    caps = response.agent_capabilities
    names = [c.name for c in caps.slash_commands]
    assert response.protocol_version == 1
    assert names == ["plan", "web"]
    data = caps.model_dump(by_alias=True)
    assert data["loadSession"] is True
    assert "slashCommands" in data  # advertised on the wire


class TestDump:
    def test_dump(self):
        caps = AgentCapabilities(slash_commands=[])
        expected = ["plan"]
        dumped = caps.model_dump()

        assert dumped["load_session"] is False
        assert [c["name"] for c in dumped["slash_commands"]] == expected
