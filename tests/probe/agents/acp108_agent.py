"""Advertises commands for new, resumed and forked sessions, none for loaded ones."""

from tiny_agent import TinyAgent, response


class Agent(TinyAgent):
    def load(self, request):
        return [response(request, {})]


Agent().serve()
