"""Sends a fork's commands late: only once the next request arrives (after the probe's
settle window, whatever its length), so the list lands in another step (the close)."""

from tiny_agent import TinyAgent, commands_update, response


class Agent(TinyAgent):
    def __init__(self) -> None:
        super().__init__()
        self.deferred = []

    def fork(self, request):
        session_id = self.new_id()
        self.deferred.append(commands_update(session_id, self.commands(session_id)))
        return [response(request, {"sessionId": session_id})]

    def handle(self, message):
        late, self.deferred = self.deferred, []
        return late + super().handle(message)


Agent().serve()
