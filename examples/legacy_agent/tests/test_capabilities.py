"""Tests for the vendored capabilities schema (schema.py)."""

from acp.schema import AvailableCommand
from schema import AgentCapabilities


class TestAgentCapabilitiesSlashCommands:
    """The slash_commands field of AgentCapabilities."""

    def test_default_empty_list(self):
        """No commands unless given."""
        caps = AgentCapabilities()
        assert caps.slash_commands == []

    def test_accepts_list_of_commands(self):
        """AgentCapabilities keeps the commands it is given."""
        command = AvailableCommand(name="web", description="Search the web")
        caps = AgentCapabilities(slash_commands=[command])
        assert len(caps.slash_commands) == 1
        assert caps.slash_commands[0].name == "web"

    def test_serializes_as_camel_case(self):
        """On the wire the field is `slashCommands`."""
        caps = AgentCapabilities(slash_commands=[])
        data = caps.model_dump(by_alias=True)
        assert "slashCommands" in data
        assert data["slashCommands"] == []


def test_create_sets_session_capabilities():
    """create() turns its flags into session capabilities."""
    command = AvailableCommand(name="plan", description="Create a plan")
    caps = AgentCapabilities.create(load_session=True, resume_session=True, slash_commands=[command])
    assert caps.load_session is True
    assert caps.session_capabilities.resume is not None
    assert caps.session_capabilities.fork is None
