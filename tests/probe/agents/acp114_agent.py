"""Sends a message chunk without its content after each setup: no client can render it."""

from tiny_agent import TinyAgent


class Agent(TinyAgent):
    def new(self, request):
        frames = super().new(request)
        session_id = frames[0]["result"]["sessionId"]
        update = {"sessionId": session_id, "update": {"sessionUpdate": "agent_message_chunk"}}
        return [*frames, {"jsonrpc": "2.0", "method": "session/update", "params": update}]


Agent().serve()
