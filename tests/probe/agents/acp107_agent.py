"""After closing a session, still sends it an update."""

from tiny_agent import TinyAgent, commands_update, response


class Agent(TinyAgent):
    def close(self, request):
        session_id = request["params"]["sessionId"]
        return [response(request, {}), commands_update(session_id, self.commands(session_id))]


Agent().serve()
