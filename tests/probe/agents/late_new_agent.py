"""Sends session/new's commands only once the next request arrives: with --prompt, during
the prompt turn, after the settle window. They belong to session/new all the same."""

from tiny_agent import TinyAgent, commands_update, response


class Agent(TinyAgent):
    def __init__(self) -> None:
        super().__init__()
        self.deferred = []

    def new(self, request):
        session_id = self.new_id()
        self.deferred.append(commands_update(session_id, self.commands(session_id)))
        return [response(request, {"sessionId": session_id})]

    def fork(self, request):  # on time
        return TinyAgent.new(self, request)

    def handle(self, message):
        late, self.deferred = self.deferred, []
        return late + super().handle(message)


Agent().serve()
