"""Serialises an empty list in the session/new result, then sends the commands."""

from tiny_agent import TinyAgent, commands_update, response


class Agent(TinyAgent):
    def new(self, request):
        session_id = self.new_id()
        return [
            response(request, {"sessionId": session_id, "availableCommands": []}),
            commands_update(session_id, self.commands(session_id)),
        ]


Agent().serve()
