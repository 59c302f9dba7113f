"""Races only when setups come together: when one read from stdin holds more than one
setup request (the probe's --burst writes them in one write), the lists of all but the
first go out before their responses, as a list built by a background task overtakes a
response that waits for the others. Requests that come one at a time are answered
correctly."""

import json
import os

from tiny_agent import TinyAgent

SETUPS = ("session/new", "session/load", "session/resume", "session/fork")


class Agent(TinyAgent):
    def serve(self) -> None:
        pending = b""
        while chunk := os.read(0, 1 << 16):
            *lines, pending = (pending + chunk).split(b"\n")
            messages = [json.loads(line) for line in lines if line.strip()]
            setups = sum(message.get("method") in SETUPS for message in messages)
            answers, updates = [], []
            for message in messages:
                frames = self.handle(message)
                if setups > 1 and message.get("method") in SETUPS and answers:
                    updates += frames[1:]  # the list, before its response
                    answers += frames[:1]
                else:
                    answers += frames
            self.write(updates + answers)


Agent().serve()
