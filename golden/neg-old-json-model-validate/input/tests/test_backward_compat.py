# Case (negative): old-JSON fixtures fed straight to model_validate prove the legacy key is ignored
from acp.schema import AgentCapabilities, InitializeResponse


def test_old_capabilities_json_is_accepted():
    caps = AgentCapabilities.model_validate(
        {"loadSession": True, "slash_commands": [{"name": "web", "description": "Search the web"}]}
    )
    assert caps.load_session is True
    assert "slash_commands" not in caps.model_dump()


def test_old_initialize_response_is_accepted():
    response = InitializeResponse.model_validate(
        {
            "protocolVersion": 1,
            "agentCapabilities": {
                "loadSession": True,
                "slashCommands": [{"name": "plan", "description": "Create a plan"}],
            },
        }
    )
    assert not hasattr(response.agent_capabilities, "slash_commands")
