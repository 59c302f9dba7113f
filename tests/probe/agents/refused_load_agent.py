"""Refuses to load (and resume) a session with no history, as real agents do (-32002,
with the cause in error.data.details): a note with the details, not a finding. With
the argument `fork`, it refuses forks too."""

import sys

from tiny_agent import TinyAgent


class Agent(TinyAgent):
    def load(self, request):
        session_id = request["params"]["sessionId"]
        details = f"no conversation history for {session_id}"
        error = {"code": -32002, "message": "Resource not found", "data": {"details": details}}
        return [{"jsonrpc": "2.0", "id": request["id"], "error": error}]

    resume = load
    if sys.argv[1:] == ["fork"]:
        fork = load


Agent().serve()
