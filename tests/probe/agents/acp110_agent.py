"""Logs a banner on stdout before its first answer."""

from tiny_agent import TinyAgent


class Agent(TinyAgent):
    def initialize(self, request):
        return ["tiny agent ready, listening on stdio", *super().initialize(request)]


Agent().serve()
