"""A proxy between clients and old ACP agents: drops what old agents still send (case: its test
file's old answers keep the key: left alone, with the proxy)."""

from typing import Any


def strip_legacy(result: dict[str, Any]) -> dict[str, Any]:
    """Old agents answer initialize with `slashCommands` in their capabilities: drop it."""
    caps = result.get("agentCapabilities") or {}
    caps.pop("slashCommands", None)
    return result
