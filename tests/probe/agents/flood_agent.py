"""Answers initialize, then floods stdout with valid JSON-RPC notifications, forever."""

import json
import sys

from tiny_agent import TinyAgent, commands_update


class Agent(TinyAgent):
    def initialize(self, request):
        frames = super().initialize(request)
        self.write(frames)
        line = json.dumps(commands_update("nobody", [{"name": "web", "description": "Search"}])) + "\n"
        block = line * 100
        while True:
            sys.stdout.write(block)
            sys.stdout.flush()


Agent().serve()
