# Case: tests reading the removed field from a field map of capabilities (`__fields__`, `vars(caps)`, `type(caps).model_fields`), as from `model_fields`: they go (ACP008), no ACP004 is left
from acp.schema import AgentCapabilities


def test_load_session():
    assert AgentCapabilities(load_session=True).load_session
