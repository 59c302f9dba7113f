# Case: a module whose every test asserts only the removed field (no agent's initialize
# to ask per session: the response is built here) is left with no test: fix removes the
# file, its fixtures and its stale docstring with it
"""The initialize response advertises the slash commands."""

import pytest

from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse


@pytest.fixture
def commands():
    return [AvailableCommand(name="web", description="Search the web")]


@pytest.fixture
def response(commands):
    return InitializeResponse(protocol_version=1, agent_capabilities=AgentCapabilities(slash_commands=commands))


def test_initialize_lists_commands(response):
    assert [c.name for c in response.agent_capabilities.slash_commands] == ["web"]


def test_initialize_wire_key(response):
    assert "slashCommands" in response.agent_capabilities.model_dump(by_alias=True)
