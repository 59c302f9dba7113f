# Case: the framework base binds the advertiser in on_connect; the application's
# subclass (agent.py) makes its own and gives it the list: bound, not reported.
from __future__ import annotations

from acp import Client


class FrameworkAgent:
    def on_connect(self, conn: Client) -> None:
        self._conn = conn
        self.command_advertiser.bind(conn)
