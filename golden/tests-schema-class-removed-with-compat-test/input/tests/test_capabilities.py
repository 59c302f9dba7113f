# Case: AgentPool's schema test class, every test of it about the field itself: removed whole, and the
# run removes the schema's field, so the backward-compatibility test takes its place
"""Tests for the capabilities schema."""

from acp.schema import AvailableCommand

from myagent.schema import AgentCapabilities


class TestAgentCapabilitiesSlashCommands:
    """Test suite for the slash_commands field of AgentCapabilities."""

    def test_default_empty_list(self):
        """Default value should be an empty list."""
        caps = AgentCapabilities()
        assert caps.slash_commands == []

    def test_accepts_list_of_commands(self):
        command = AvailableCommand(name="test_cmd", description="Test command")
        caps = AgentCapabilities(slash_commands=[command])
        assert len(caps.slash_commands) == 1
        assert caps.slash_commands[0].name == "test_cmd"

    def test_json_serialization_includes_field(self):
        caps = AgentCapabilities(slash_commands=[])
        json_data = caps.model_dump(mode="json")
        assert "slash_commands" in json_data


class TestAgentCapabilities:
    def test_default_load_session(self):
        assert AgentCapabilities().load_session is False
