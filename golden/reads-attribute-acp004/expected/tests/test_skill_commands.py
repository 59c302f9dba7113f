# Case: tests reading the removed field as an attribute: those asserting only it go (ACP008); a helper reading it is reported (ACP004)

from acp.schema import AgentCapabilities, InitializeResponse


def _names(caps: AgentCapabilities) -> list[str]:
    return [cmd.name for cmd in caps.slash_commands]


def test_create_response_has_no_commands():
    init = InitializeResponse.create(protocol_version=1, name="agentpool", version="1.0")
    assert _names(init.agent_capabilities) == []
