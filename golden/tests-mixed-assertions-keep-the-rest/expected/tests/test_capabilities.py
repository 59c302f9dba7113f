# Case: tests that assert other things too keep them; only their statements about the field go
from acp.schema import AgentCapabilities


def test_capabilities_flags():
    caps = AgentCapabilities(load_session=True)
    assert caps.load_session is True
    assert caps.prompt_capabilities is None


async def test_initialize(acp_agent):
    response = await acp_agent.initialize(protocol_version=1)
    caps = response.agent_capabilities
    assert response.protocol_version == 1
    data = caps.model_dump(by_alias=True)
    assert data["loadSession"] is True


class TestDump:
    def test_dump(self):
        caps = AgentCapabilities()
        dumped = caps.model_dump()

        assert dumped["load_session"] is False
