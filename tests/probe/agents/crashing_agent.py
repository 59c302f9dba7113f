"""Answers initialize, then crashes on session/new with a traceback on stderr."""

import sys

from tiny_agent import TinyAgent


class Agent(TinyAgent):
    def new(self, request):
        print("Traceback (most recent call last):\nRuntimeError: no model configured", file=sys.stderr, flush=True)
        sys.exit(3)


Agent().serve()
