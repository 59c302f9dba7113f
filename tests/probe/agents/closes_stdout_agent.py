"""Answers initialize, then closes its stdout on session/new and keeps running: the
probe kills it, and must not report that as the agent's own exit code."""

import os
import threading

from tiny_agent import TinyAgent


class Agent(TinyAgent):
    def new(self, request):
        os.close(1)
        threading.Event().wait()


Agent().serve()
