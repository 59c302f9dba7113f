# Case: raw JSON-RPC initialize result built in handle_initialize, not an agent's initialize: the "slashCommands" entry cannot move; it stays, with a TODO above the return
from typing import Any


class RawAgent:
    """Minimal agent speaking JSON-RPC without the SDK models."""

    def __init__(self, commands: list[dict[str, Any]]) -> None:
        self.commands = commands

    async def handle_initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        # acp-migrate: TODO: advertise `[{"name": c["name"…` per session (acp-migrate rules ACP005)
        return {
            "protocolVersion": params.get("protocolVersion", 1),
            "agentCapabilities": {
                "loadSession": True,
                "promptCapabilities": {"image": False, "audio": False},
                "slashCommands": [{"name": c["name"], "description": c["description"]} for c in self.commands],
            },
            "agentInfo": {"name": "raw-agent", "version": "0.3.0"},
        }
