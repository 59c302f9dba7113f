"""Tests for the agent's initialize response (in-process: no connection is needed)."""

import asyncio

from agent import LegacyACPAgent


def initialize(protocol_version=1):
    return asyncio.run(LegacyACPAgent().initialize(protocol_version=protocol_version))


def test_initialize_exposes_skill_commands():
    """The skill commands are advertised at initialize."""
    response = initialize()
    assert response.agent_capabilities is not None
    names = [command.name for command in response.agent_capabilities.slash_commands]
    assert names == ["web", "test", "plan"]


def test_initialize_describes_the_agent():
    """initialize names the agent, negotiates the version and lists its capabilities."""
    response = initialize(protocol_version=99)
    caps = response.agent_capabilities
    assert response.protocol_version == 1
    assert response.agent_info.name == "legacy-agent"
    assert caps.load_session is True
    hints = {c.name: c.input.root.hint for c in caps.slash_commands if c.input is not None}
    assert hints == {"web": "query to search for", "plan": "description of what to plan"}
