# Case: tests reading the removed field from a field map of capabilities (`__fields__`, `vars(caps)`, `type(caps).model_fields`), as from `model_fields`: they go (ACP008), no ACP004 is left
from acp.schema import AgentCapabilities, AvailableCommand


def test_fields_lists_commands():
    assert "slash_commands" in AgentCapabilities.__fields__


def test_vars_holds_commands():
    caps = AgentCapabilities(slash_commands=[AvailableCommand(name="web", description="Search")])
    assert vars(caps)["slash_commands"][0].name == "web"


def test_type_fields():
    caps = AgentCapabilities()
    assert "slash_commands" in type(caps).model_fields


def test_load_session():
    assert AgentCapabilities(load_session=True).load_session
