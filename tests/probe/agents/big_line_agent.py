"""Answers initialize with one 64 MB line (a `_meta` the client may ignore), then
behaves: the probe must read the line whole, in linear time, and drive on."""

import json

from tiny_agent import TinyAgent, response

SIZE = 64 << 20


class Agent(TinyAgent):
    def initialize(self, request):
        result = {"protocolVersion": 1, "agentCapabilities": self.capabilities, "_meta": {"padding": "x" * SIZE}}
        return [json.dumps(response(request, result))]


Agent().serve()
