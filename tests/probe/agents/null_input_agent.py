"""Every command has `input: null`, which the official schema allows (`anyOf` the input
and null): notes, one a list, never a finding."""

from tiny_agent import TinyAgent

COMMANDS = [{"name": name, "description": f"Run {name}", "input": None} for name in ("plan", "review", "test", "web")]


class Agent(TinyAgent):
    def commands(self, session_id):
        return list(COMMANDS)


Agent().serve()
