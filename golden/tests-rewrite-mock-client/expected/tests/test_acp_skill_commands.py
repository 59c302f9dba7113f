# Case: AgentPool's skill-command tests: an agent built by a fixture with client=Mock(),
# and one built in the test; both initialize tests become tests of what every session
# is advertised, names, docstrings and messages with them
"""Tests for ACP server skill commands exposure.

These tests verify that skills are properly exposed as slash commands
per session.
"""

from __future__ import annotations

from unittest.mock import Mock

import pytest

from acp.schema import InitializeRequest
from myagent.acp_agent import PoolACPAgent


@pytest.fixture
def agent_with_skills() -> PoolACPAgent:
    """An ACP agent with one skill."""
    return PoolACPAgent(client=Mock(), skills=["test-skill"])


async def test_sessions_advertise_skill_commands(agent_with_skills: PoolACPAgent):
    """Test that every session is advertised skill commands when skills are configured."""
    request = InitializeRequest(protocol_version=1)
    response = await agent_with_skills.initialize(request)

    assert response.agent_capabilities is not None
    assert len(agent_with_skills.command_advertiser.commands()) > 0, (
        "per-session advertisement should expose skill commands when skills are configured"
    )

    cmd_names = [cmd.name for cmd in agent_with_skills.command_advertiser.commands()]
    assert "test-skill" in cmd_names, f"Expected 'test-skill' in slash commands, got: {cmd_names}"


async def test_sessions_advertise_without_skills_has_empty_commands():
    """Test that every session is advertised empty slash commands when no skills configured."""
    acp_agent = PoolACPAgent(client=Mock())

    request = InitializeRequest(protocol_version=1)
    response = await acp_agent.initialize(request)

    assert response.agent_capabilities is not None
    assert acp_agent.command_advertiser.commands() == []


def test_agent_keeps_its_client(agent_with_skills: PoolACPAgent):
    assert agent_with_skills.client is not None
