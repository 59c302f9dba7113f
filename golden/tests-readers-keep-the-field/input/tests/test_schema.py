"""Tests for the project's capabilities schema."""

from acp.schema import AvailableCommand

from myagent.schema import AgentCapabilities


def test_load_session_default():
    assert AgentCapabilities().load_session is False


# Slash commands at initialize.


def test_slash_commands_default():
    caps = AgentCapabilities()
    assert caps.slash_commands == []


def test_slash_commands_from_json():
    caps = AgentCapabilities.model_validate({"slashCommands": [{"name": "web", "description": "Search"}]})
    assert caps.slash_commands == [AvailableCommand(name="web", description="Search")]


class TestSlashCommandsWire:
    def test_dump(self):
        caps = AgentCapabilities(slash_commands=[AvailableCommand(name="plan", description="Plan")])
        assert caps.model_dump(by_alias=True)["slashCommands"][0]["name"] == "plan"
