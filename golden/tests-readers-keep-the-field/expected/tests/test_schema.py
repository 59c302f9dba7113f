"""Tests for the project's capabilities schema."""

from myagent.schema import AgentCapabilities


def test_load_session_default():
    assert AgentCapabilities().load_session is False
