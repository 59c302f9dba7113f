"""The application's agent: its own on_connect, no super()."""

from __future__ import annotations

from typing import Any

from acp import Client

from framework import FrameworkAgent


class AppAgent(FrameworkAgent):
    def on_connect(self, conn: Client) -> None:
        self._conn = conn
        self.connected = True
