"""A tiny ACP agent in raw newline-delimited JSON-RPC, for the probe's tests.

`TinyAgent` answers every request the probe sends, correctly: commands per
session, after each setup response. Each purpose-built agent in this folder
subclasses it and breaks one wire rule. Whatever a handler returns is written in
one `write` (frames in that order), so what the probe reads never depends on timing.
Standard library only; it starts in milliseconds.
"""

from __future__ import annotations

import json
import sys
from typing import Any

WEB = {"name": "web", "description": "Search the web", "input": {"hint": "query"}}
TEST = {"name": "test", "description": "Run the tests"}
COMMANDS = [WEB, TEST]


def response(request: dict[str, Any], result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request["id"], "result": result}


def commands_update(session_id: str, commands: Any) -> dict[str, Any]:
    update = {"sessionUpdate": "available_commands_update", "availableCommands": commands}
    return {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": session_id, "update": update}}


class TinyAgent:
    capabilities: dict[str, Any] = {
        "loadSession": True,
        "sessionCapabilities": {"resume": {}, "fork": {}, "close": {}},
    }

    def __init__(self) -> None:
        self.sessions = 0

    def new_id(self) -> str:
        self.sessions += 1
        return f"sess-{self.sessions}"

    def commands(self, session_id: str) -> list[dict[str, Any]]:
        return list(COMMANDS)

    # Handlers: each returns the frames to write, in order.
    def initialize(self, request):
        return [response(request, {"protocolVersion": 1, "agentCapabilities": self.capabilities})]

    def new(self, request):
        session_id = self.new_id()
        return [response(request, {"sessionId": session_id}), commands_update(session_id, self.commands(session_id))]

    def load(self, request):
        session_id = request["params"]["sessionId"]
        return [response(request, {}), commands_update(session_id, self.commands(session_id))]

    resume = load

    def fork(self, request):
        return self.new(request)

    def close(self, request):
        return [response(request, {})]

    def prompt(self, request):
        return [response(request, {"stopReason": "end_turn"})]

    def other(self, request):
        return [{"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": "method not found"}}]

    def handle(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        if "id" not in message or "method" not in message:
            return []  # a notification, or the client's reply to our own request
        route = {
            "initialize": self.initialize,
            "session/new": self.new,
            "session/load": self.load,
            "session/resume": self.resume,
            "session/fork": self.fork,
            "session/close": self.close,
            "session/prompt": self.prompt,
        }
        return route.get(message["method"], self.other)(message)

    def write(self, frames: list[Any]) -> None:
        text = "".join((f if isinstance(f, str) else json.dumps(f)) + "\n" for f in frames)
        sys.stdout.write(text)
        sys.stdout.flush()

    def serve(self) -> None:
        for line in sys.stdin:
            if line.strip():
                self.write(self.handle(json.loads(line)))


if __name__ == "__main__":
    TinyAgent().serve()
