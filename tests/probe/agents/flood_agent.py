"""Answers initialize, then floods stdout with valid JSON-RPC notifications, forever: each
a list of one command without a description, each command named differently (a defect
of its own, not one repeated)."""

import json
import sys

from tiny_agent import TinyAgent, commands_update


class Agent(TinyAgent):
    def initialize(self, request):
        frames = super().initialize(request)
        self.write(frames)
        number = 0
        while True:
            lines = [json.dumps(commands_update("nobody", [{"name": f"c{number + n}"}])) for n in range(100)]
            number += 100
            sys.stdout.write("\n".join(lines) + "\n")
            sys.stdout.flush()


Agent().serve()
