"""Sends a forked session's commands before the session/fork response."""

from tiny_agent import TinyAgent, commands_update, response


class Agent(TinyAgent):
    def fork(self, request):
        session_id = self.new_id()
        return [commands_update(session_id, self.commands(session_id)), response(request, {"sessionId": session_id})]


Agent().serve()
