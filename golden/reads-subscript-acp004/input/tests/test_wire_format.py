# Case: tests reading "slashCommands"/"slash_commands" from serialized capabilities: their assertions of the field go (ACP008)
import json

from acp.schema import AgentCapabilities


def test_wire_format(raw_initialize_response: str):
    payload = json.loads(raw_initialize_response)
    assert payload["result"]["agentCapabilities"]["slashCommands"] == []


def test_dump_by_alias():
    caps = AgentCapabilities(load_session=True)
    data = caps.model_dump(by_alias=True)
    assert data["loadSession"] is True
    assert data["slashCommands"] == []


def test_snake_case_dump(json_data: dict):
    agent_caps = json_data["agent_capabilities"]
    assert len(agent_caps["slash_commands"]) == 3
