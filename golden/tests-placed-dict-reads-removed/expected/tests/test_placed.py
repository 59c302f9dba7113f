# Case: a test reading the removed key from a dict it places under "agentCapabilities", a capabilities dict as the rules see it: the read goes (ACP008), the key goes (ACP002), no ACP004 is left
from acp.schema import InitializeResponse


def test_wire_payload_keeps_commands():
    caps = {"loadSession": True}
    payload = {"protocolVersion": 1, "agentCapabilities": caps}
    response = InitializeResponse.model_validate(payload)
    assert response.protocol_version == 1


def test_load_session():
    assert InitializeResponse.model_validate({"protocolVersion": 1}).protocol_version == 1
