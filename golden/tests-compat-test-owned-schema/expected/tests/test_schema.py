"""Tests for the project's capabilities schema."""

from myagent.schema import AgentCapabilities


def test_load_session_default():
    assert AgentCapabilities().load_session is False


# Slash commands at initialize.


def test_old_json_with_slash_commands_still_validates():
    """Old JSON with `slashCommands` still validates, without the field (RFC-0032)."""
    caps = AgentCapabilities.model_validate(
        {"slashCommands": [{"name": "plan", "description": "Create a plan"}]}
    )
    assert not hasattr(caps, "slash_commands")
