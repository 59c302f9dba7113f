# Case: tests whose assertions are all about the removed field go whole, an emptied class with them; a test of an agent's initialize result is rewritten to test what every session is advertised
import asyncio
import unittest

import pytest

from acp.schema import AgentCapabilities, AvailableCommand
from myagent.agent import make_agent


class TestSlashCommandsField:
    """The slash_commands field of AgentCapabilities."""

    def test_default_empty(self):
        """No commands unless given."""
        caps = AgentCapabilities()
        assert caps.slash_commands == []

    @pytest.mark.parametrize("count", [1, 2])
    def test_keeps_commands(self, count):
        commands = [AvailableCommand(name=f"c{i}", description="d") for i in range(count)]
        caps = AgentCapabilities(slash_commands=commands)
        assert len(caps.slash_commands) == count


class InitializeCommandsTest(unittest.TestCase):
    def test_initialize_lists_commands(self):
        response = asyncio.run(make_agent().initialize(protocol_version=1))
        self.assertIsNotNone(response.agent_capabilities)
        self.assertEqual([c.name for c in response.agent_capabilities.slash_commands], ["plan"])

    def test_dump_has_the_key(self):
        data = AgentCapabilities().model_dump(by_alias=True)
        self.assertIn("slashCommands", data)


@pytest.mark.asyncio
async def test_initialize_exposes_commands(acp_agent):
    """Initialize advertises the skill commands."""
    response = await acp_agent.initialize(protocol_version=1)
    assert response.agent_capabilities is not None
    names = [cmd.name for cmd in response.agent_capabilities.slash_commands]
    assert "plan" in names, f"got {names}"


def test_load_session_flag():
    assert AgentCapabilities(load_session=True).load_session
