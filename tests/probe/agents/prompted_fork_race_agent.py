"""As sudocode: a fork of a session with a transcript (one that was prompted) gets its
commands before the fork response; a fork of a fresh session gets them after. Only a
probe that prompts before forking sees the race."""

from tiny_agent import TinyAgent, commands_update, response


class Agent(TinyAgent):
    def __init__(self) -> None:
        super().__init__()
        self.prompted = set()

    def prompt(self, request):
        self.prompted.add(request["params"]["sessionId"])
        return super().prompt(request)

    def fork(self, request):
        if request["params"]["sessionId"] not in self.prompted:
            return super().fork(request)
        session_id = self.new_id()
        return [commands_update(session_id, self.commands(session_id)), response(request, {"sessionId": session_id})]


Agent().serve()
