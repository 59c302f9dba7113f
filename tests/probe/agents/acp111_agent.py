"""Sends a new session's commands one source at a time, as if updates were deltas."""

from tiny_agent import TEST, WEB, TinyAgent, commands_update


class Agent(TinyAgent):
    def new(self, request):
        frames = super().new(request)
        session_id = frames[0]["result"]["sessionId"]
        return [frames[0], commands_update(session_id, [WEB]), commands_update(session_id, [TEST])]


Agent().serve()
