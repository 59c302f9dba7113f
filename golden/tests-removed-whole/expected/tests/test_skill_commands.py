# Case: tests whose assertions are all about the removed field go whole, an emptied class with them

from acp.schema import AgentCapabilities


def test_load_session_flag():
    assert AgentCapabilities(load_session=True).load_session
