"""Sends a load's commands late: only once the next request arrives (after the probe's
settle window, whatever its length), so the list lands in another step (the resume)."""

from tiny_agent import TinyAgent, commands_update, response


class Agent(TinyAgent):
    def __init__(self) -> None:
        super().__init__()
        self.deferred = []

    def load(self, request):
        session_id = request["params"]["sessionId"]
        self.deferred.append(commands_update(session_id, self.commands(session_id)))
        return [response(request, {})]

    def handle(self, message):
        late, self.deferred = self.deferred, []
        return late + super().handle(message)


Agent().serve()
