"""Answers session/new with `null`: the SDK 0.7 silent break (a camelCase `newSession`
never called, the protocol stub's `None` sent instead)."""

from tiny_agent import TinyAgent, response


class Agent(TinyAgent):
    def new(self, request):
        return [response(request, None)]


Agent().serve()
