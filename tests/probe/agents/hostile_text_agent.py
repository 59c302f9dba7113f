"""Puts workflow commands and terminal escapes in its error texts and on stderr: it
refuses to load (and resume) a session; with the argument `new`, it refuses
session/new too, after writing them on stderr."""

import sys

from tiny_agent import TinyAgent

FORGED = "::error file=agent.py::forged by the agent"
TERMINAL = "\x1b]0;retitled\x07\x1b[2J"


class Agent(TinyAgent):
    def load(self, request):
        error = {"code": -32002, "message": f"not found\n{FORGED}\r\n{TERMINAL}", "data": {"details": FORGED}}
        return [{"jsonrpc": "2.0", "id": request["id"], "error": error}]

    resume = load
    if sys.argv[1:] == ["new"]:

        def new(self, request):
            print(f"{FORGED}\n  {FORGED}\n{TERMINAL}", file=sys.stderr, flush=True)
            return self.load(request)


Agent().serve()
