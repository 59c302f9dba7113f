"""A turn that never ends by itself (as with no model configured): the prompt is answered
only once the client sends session/cancel, with stopReason cancelled."""

from tiny_agent import TinyAgent, response


class Agent(TinyAgent):
    def prompt(self, request):
        self.turn = request
        return []

    def handle(self, message):
        if message.get("method") == "session/cancel":
            return [response(self.turn, {"stopReason": "cancelled"})]
        return super().handle(message)


Agent().serve()
