# Case: snake_case dict form: "slash_commands" first key inside a one-line "agent_capabilities" dict
import json
from typing import Any


class JsonLineAgent:
    def list_commands(self) -> list[dict[str, Any]]:
        return [{"name": name, "description": doc} for name, doc in self._commands.items()]

    def initialize_result(self, protocol_version: int) -> str:
        result = {
            "protocol_version": protocol_version,
            "agent_capabilities": {"slash_commands": [], "load_session": True},
        }
        return json.dumps(result)
