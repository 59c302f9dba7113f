# Case: an advertiser made and given the list in agent.py, under two project classes in
# other modules (mid.py, base.py) that keep the connection but never bind it: each base
# is read in its own module, the chain is known, and ACP010 reports the loss.
from __future__ import annotations

from acp import Client


class FrameworkAgent:
    def on_connect(self, conn: Client) -> None:
        self._conn = conn
