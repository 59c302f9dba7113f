# Case: tests reading "slashCommands"/"slash_commands" from serialized capabilities: their assertions of the field go (ACP008)

from acp.schema import AgentCapabilities


def test_dump_by_alias():
    caps = AgentCapabilities(load_session=True)
    data = caps.model_dump(by_alias=True)
    assert data["loadSession"] is True
