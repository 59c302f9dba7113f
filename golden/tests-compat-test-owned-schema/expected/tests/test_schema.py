"""Tests for the project's capabilities schema."""

from myagent.schema import AgentCapabilities


def test_load_session_default():
    assert AgentCapabilities().load_session is False


# Slash commands at initialize.


def test_old_json_with_slash_commands_still_validates():
    """Old JSON with `slashCommands` still validates, without the field (RFC-0032)."""
    commands = [{"name": "plan", "description": "Create a plan"}]
    caps = AgentCapabilities.model_validate({"slashCommands": commands})
    assert not hasattr(caps, "slash_commands")
