# Case: client code reading the removed field from capabilities validated from strings, as from `model_validate`: both reported (ACP004), nothing changes
from acp.schema import AgentCapabilities


def from_mapping(raw: dict) -> list[str]:
    return [c.name for c in AgentCapabilities.model_validate(raw).slash_commands]


def from_strings(raw: dict[str, str]) -> list[str]:
    return [c.name for c in AgentCapabilities.model_validate_strings(raw).slash_commands]
