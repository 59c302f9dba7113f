"""A compliant agent whose command lists come late, by the probe's progress, never by a
clock: each setup's list goes out once AFTER more requests of the probe have arrived
since its response (0: right after it), and every list still held once the token
arrives on the FIFO RELEASE (the test writes it as the probe starts waiting for the
lists it is owed). With --lists-last, the answers of requests read together (a
burst) all go out before any of their lists.

    delayed_lists_agent.py AFTER RELEASE [--lists-last]
"""

import json
import os
import sys
import threading

from tiny_agent import TinyAgent

SETUPS = ("session/new", "session/load", "session/resume", "session/fork")


class Agent(TinyAgent):
    def __init__(self, after: int, release: str, lists_last: bool) -> None:
        super().__init__()
        self.after = after
        self.lists_last = lists_last
        self.held: list[list] = []  # [requests still to wait for, the list]
        self.lock = threading.Lock()
        threading.Thread(target=self.wait_for_token, args=(release,), daemon=True).start()

    def wait_for_token(self, release: str) -> None:
        with open(release, "rb") as token:
            token.read()
        with self.lock:
            held, self.held = self.held, []
            self.write([update for _, update in held])

    def serve(self) -> None:
        pending = b""
        while chunk := os.read(0, 1 << 16):
            *lines, pending = (pending + chunk).split(b"\n")
            with self.lock:
                answers, lists = [], []
                for message in (json.loads(line) for line in lines if line.strip()):
                    if "method" in message and "id" in message:
                        self.count_down(lists)
                    frames = self.handle(message)
                    if message.get("method") in SETUPS:
                        self.held.append([self.after, frames[1]])
                        frames = frames[:1]
                        if self.after == 0:
                            self.count_down(lists if self.lists_last else frames)
                    answers += frames
                self.write(answers + lists)

    def count_down(self, into: list) -> None:
        """One more request came: the lists it was the last one waited for go out."""
        for entry in self.held:
            entry[0] -= 1
        into += [update for left, update in self.held if left <= 0]
        self.held = [entry for entry in self.held if entry[0] > 0]


Agent(int(sys.argv[1]), sys.argv[2], "--lists-last" in sys.argv).serve()
