# Case: old JSON fixtures validated with pydantic's TypeAdapter, and a module constant only ever
# parsed: compatibility tests, left alone (no TODO)
from pydantic import TypeAdapter

from acp.schema import AgentCapabilities, InitializeResponse

OLD = {
    "protocolVersion": 1,
    "agentCapabilities": {"loadSession": True, "slashCommands": [{"name": "web", "description": "Search"}]},
}


def test_old_initialize_json_still_validates():
    response = TypeAdapter(InitializeResponse).validate_python(OLD)
    assert response.agent_capabilities.load_session


def test_old_capabilities_json_still_validates():
    caps = TypeAdapter(AgentCapabilities).validate_python({"loadSession": True, "slashCommands": []})
    assert caps.load_session


def test_old_json_text_still_validates():
    caps = TypeAdapter(AgentCapabilities).validate_json('{"slashCommands": []}')
    assert caps is not None


def test_old_constant_validates_as_a_model_too():
    assert InitializeResponse.model_validate(OLD).agent_capabilities.load_session
