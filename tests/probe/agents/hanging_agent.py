"""Answers initialize, then never answers session/new (it keeps reading stdin)."""

from tiny_agent import TinyAgent


class Agent(TinyAgent):
    def new(self, request):
        return []


Agent().serve()
