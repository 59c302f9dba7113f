# Case: raw JSON-RPC initialize result: "slashCommands" key inside the "agentCapabilities" dict literal
from typing import Any


class RawAgent:
    """Minimal agent speaking JSON-RPC without the SDK models."""

    def __init__(self, commands: list[dict[str, Any]]) -> None:
        self.commands = commands

    async def handle_initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        return {
            "protocolVersion": params.get("protocolVersion", 1),
            "agentCapabilities": {
                "loadSession": True,
                "promptCapabilities": {"image": False, "audio": False},
                "slashCommands": [],
            },
            "agentInfo": {"name": "raw-agent", "version": "0.3.0"},
        }
