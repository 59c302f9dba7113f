"""Two code paths advertise the same list for a new session."""

from tiny_agent import TinyAgent, commands_update


class Agent(TinyAgent):
    def new(self, request):
        frames = super().new(request)
        return [*frames, commands_update(frames[0]["result"]["sessionId"], self.commands("any"))]


Agent().serve()
