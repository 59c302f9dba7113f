# Case: the run keeps the schema's field (a caller fix leaves, suppressed in agent.py): the
# tests of the field still go, and no compatibility test asserts the field is gone
"""Tests for the capabilities schema."""

from myagent.schema import AgentCapabilities


class TestAgentCapabilities:
    def test_default_load_session(self):
        assert AgentCapabilities().load_session is False
