# Case: tests reading the removed field from a copy of capabilities, `copy()` as `model_copy()`: both go (ACP008), no ACP004 is left
from acp.schema import AgentCapabilities, AvailableCommand


def test_model_copy_keeps_commands():
    caps = AgentCapabilities(slash_commands=[AvailableCommand(name="web", description="Search")])
    assert caps.model_copy().slash_commands[0].name == "web"


def test_copy_keeps_commands():
    caps = AgentCapabilities(slash_commands=[AvailableCommand(name="web", description="Search")])
    assert caps.copy().slash_commands[0].name == "web"


def test_load_session():
    assert AgentCapabilities(load_session=True).load_session
