"""Advertises its commands at initialize as well (the pre-RFC-0032 `slashCommands`)."""

from tiny_agent import COMMANDS, TinyAgent


class Agent(TinyAgent):
    capabilities = {**TinyAgent.capabilities, "slashCommands": COMMANDS}


Agent().serve()
