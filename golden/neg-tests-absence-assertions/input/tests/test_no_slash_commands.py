# Case (negative): tests asserting the field's absence are correct code: nothing is reported, nothing changes
import unittest

from acp.schema import AgentCapabilities


def test_no_attribute():
    caps = AgentCapabilities(load_session=True)
    assert not hasattr(caps, "slash_commands")
    assert getattr(caps, "slash_commands", None) is None


def test_not_in_the_dump():
    data = AgentCapabilities().model_dump(by_alias=True)
    assert "slashCommands" not in data
    assert data.get("slashCommands") is None
    assert "slash_commands" not in AgentCapabilities.model_fields


async def test_initialize_has_no_commands(acp_agent):
    response = await acp_agent.initialize(protocol_version=1)
    assert response.agent_capabilities.load_session is True
    assert "slashCommands" not in response.model_dump(by_alias=True)["agentCapabilities"]


class AbsenceTest(unittest.TestCase):
    def test_unittest_style(self):
        caps = AgentCapabilities()
        self.assertFalse(hasattr(caps, "slash_commands"))
        self.assertNotIn("slashCommands", caps.model_dump(by_alias=True))
