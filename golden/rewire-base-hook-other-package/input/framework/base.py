"""A framework's base agent: it keeps the connection the SDK hands it."""

from __future__ import annotations

from typing import Any


class BaseAgent:
    def on_connect(self, conn: Any) -> None:
        self._conn = conn
