# Case: AgentPool's schema test class, every test of it about the field itself: removed whole, and the
# run removes the schema's field, so the backward-compatibility test takes its place
"""Tests for the capabilities schema."""

from myagent.schema import AgentCapabilities


def test_old_json_with_slash_commands_still_validates():
    """Old JSON with `slashCommands` still validates, without the field (RFC-0032)."""
    commands = [{"name": "plan", "description": "Create a plan"}]
    caps = AgentCapabilities.model_validate({"slashCommands": commands})
    assert not hasattr(caps, "slash_commands")


class TestAgentCapabilities:
    def test_default_load_session(self):
        assert AgentCapabilities().load_session is False
