# Case (negative): assertions that the removed field is absent are already right: no finding, nothing changes
from typing import Any

import pytest

from acp.schema import AgentCapabilities


@pytest.mark.asyncio
async def test_initialize_advertises_no_commands(acp_agent: Any) -> None:
    response = await acp_agent.initialize(protocol_version=1)
    caps = response.agent_capabilities
    assert not hasattr(caps, "slash_commands")
    assert getattr(caps, "slash_commands", None) is None
    assert getattr(response.agent_capabilities, "slashCommands", None) == None  # noqa: E711
    assert getattr(caps, "slash_commands", []) == []
    assert not getattr(caps, "slash_commands", None)
    assert "slash_commands" not in caps.model_dump()
    assert "slashCommands" not in caps.model_dump(by_alias=True)
    assert not ("slash_commands" in caps.model_dump())


def test_wire_result_has_no_commands(raw_result: dict[str, Any]) -> None:
    data = raw_result["agentCapabilities"]
    assert "slashCommands" not in data
    assert data.get("slashCommands") is None
    assert data.get("slashCommands", []) == []
    assert not data.get("slashCommands")
    assert raw_result.get("agentCapabilities", {}).get("slashCommands") is None


def test_schema_has_no_field() -> None:
    assert "slash_commands" not in AgentCapabilities.model_fields
    assert not hasattr(AgentCapabilities(), "slash_commands")
    assert "slash_commands" not in vars(AgentCapabilities())
