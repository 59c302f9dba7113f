"""Writes a line nested 100,000 deep on stdout before its first answer."""

from tiny_agent import TinyAgent


class Agent(TinyAgent):
    def initialize(self, request):
        return ["[" * 100_000 + "]" * 100_000, *super().initialize(request)]


Agent().serve()
