# Case: tests reading the removed field from a copy of capabilities, `copy()` as `model_copy()`: both go (ACP008), no ACP004 is left
from acp.schema import AgentCapabilities


def test_load_session():
    assert AgentCapabilities(load_session=True).load_session
