"""Names a command with a space and gives it `input: null`."""

from tiny_agent import COMMANDS, TinyAgent


class Agent(TinyAgent):
    def commands(self, session_id):
        return [*COMMANDS, {"name": "deploy now", "description": "Deploy", "input": None}]


Agent().serve()
