"""Clears a new session's commands with `availableCommands: null` instead of []."""

from tiny_agent import TinyAgent, commands_update, response


class Agent(TinyAgent):
    def new(self, request):
        session_id = self.new_id()
        return [response(request, {"sessionId": session_id}), commands_update(session_id, None)]


Agent().serve()
