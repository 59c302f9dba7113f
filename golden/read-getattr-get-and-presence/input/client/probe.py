# Case: client code reading the removed field through getattr, .get and presence assertions: each is reported (ACP004), nothing changes
from typing import Any

from acp.schema import AgentCapabilities, InitializeResponse


def advertised_names(response: InitializeResponse) -> list[str]:
    caps = response.agent_capabilities
    commands = getattr(caps, "slash_commands")
    fallback = getattr(caps, "slash_commands", None) or []
    return [c.name for c in commands or fallback]


def wire_names(payload: dict[str, Any]) -> list[str]:
    caps = payload["result"]["agentCapabilities"]
    return [c["name"] for c in caps.get("slashCommands", [])]


def dumped_names(caps: AgentCapabilities) -> list[str]:
    return [c["name"] for c in caps.model_dump(by_alias=True).get("slashCommands") or []]


def check_legacy_server(caps: AgentCapabilities) -> None:
    assert hasattr(caps, "slash_commands")
    assert "slashCommands" in caps.model_dump(by_alias=True)
    assert getattr(caps, "slash_commands", None) is not None


def supports_commands(caps: AgentCapabilities) -> bool:
    # Compatibility checks outside an assertion are right with either schema: not reported.
    return hasattr(caps, "slash_commands") or "slash_commands" in AgentCapabilities.model_fields
