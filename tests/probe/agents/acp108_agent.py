"""Advertises commands for new and forked sessions, none for loaded ones (and no resume,
so that which setup went without is plain on the wire)."""

from tiny_agent import TinyAgent, response


class Agent(TinyAgent):
    capabilities = {"loadSession": True, "sessionCapabilities": {"fork": {}, "close": {}}}

    def load(self, request):
        return [response(request, {})]


Agent().serve()
