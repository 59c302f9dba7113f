"""Sends a user's and a project's `test` command both."""

from tiny_agent import COMMANDS, TinyAgent


class Agent(TinyAgent):
    def commands(self, session_id):
        return [*COMMANDS, {"name": "test", "description": "Run the project's tests"}]


Agent().serve()
