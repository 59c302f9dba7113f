"""A JSON-RPC connection built like AgentPool's fork of the SDK, for tests without a transport.

AgentPool's ``acp.connection.Connection`` (Leoyzen/agentpool, ``src/acp/connection.py``)
keeps its stream observers in ``self._observers`` (a list, no ``add_observer``),
sends through ``send_notification(method, params)`` and notifies observers with a
deep copy after each message is written; its ``AgentSideConnection`` keeps that
connection in ``_conn`` and its ``session_update`` takes a ``SessionNotification``
model. These classes copy that design, minus the bytes: what would be written is
appended to ``written``.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
from dataclasses import dataclass
from typing import Any, Literal


@dataclass(frozen=True, slots=True)
class StreamEvent:
    direction: Literal["incoming", "outgoing"]  # AgentPool uses plain strings
    message: dict[str, Any]


class ForkConnection:
    """The fork's Connection: ``_observers`` list, ``send_notification``, no ``add_observer``."""

    def __init__(self, observers: list[Any] | None = None) -> None:
        self._observers: list[Any] = list(observers or [])
        self.written: list[dict[str, Any]] = []
        self.fail_sends = 0  # that many next writes raise ConnectionError
        self.hold: Any = None  # an asyncio.Event: writes wait for it while set here
        self.held_write: Any = None  # an asyncio.Event set once a write waits for ``hold``
        self.tasks: list[asyncio.Future[Any]] = []  # awaitable observer results, run as the fork does

    async def _write(self, payload: dict[str, Any]) -> None:
        if self.hold is not None:
            if self.held_write is not None:
                self.held_write.set()
            await self.hold.wait()
        if self.fail_sends:
            self.fail_sends -= 1
            raise ConnectionError("write failed (test)")
        self.written.append(payload)

    async def send_notification(self, method: str, params: Any = None) -> None:
        payload = {"jsonrpc": "2.0", "method": method, "params": params}
        await self._write(payload)
        self._notify_observers("outgoing", payload)

    def _notify_observers(self, direction: Literal["incoming", "outgoing"], message: dict[str, Any]) -> None:
        event = StreamEvent(direction, copy.deepcopy(message))
        for observer in list(self._observers):
            result = observer(event)
            if inspect.isawaitable(result):  # the fork runs it as a task
                self.tasks.append(asyncio.ensure_future(result))

    # -- what the receive loop and the request runner do, driven by the test --

    def receive(self, message: dict[str, Any]) -> None:
        """A message read from the peer (observers see it before its handler starts)."""
        self._notify_observers("incoming", message)

    async def respond(self, request_id: Any, result: Any = None, error: Any = None) -> None:
        payload: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id}
        if error is not None:
            payload["error"] = error
        else:
            payload["result"] = result
        await self._write(payload)
        self._notify_observers("outgoing", payload)

    def commands_updates(self, session_id: str | None = None) -> list[tuple[int, Any]]:
        """(index in ``written``, availableCommands) of each commands update."""
        found = []
        for index, message in enumerate(self.written):
            params = message.get("params") or {}
            update = params.get("update") if isinstance(params, dict) else None
            if message.get("method") != "session/update" or not isinstance(update, dict):
                continue
            if update.get("sessionUpdate") != "available_commands_update":
                continue
            if session_id is None or params.get("sessionId") == session_id:
                found.append((index, update.get("availableCommands", "MISSING")))
        return found

    def index_of_response(self, request_id: Any) -> int:
        for index, message in enumerate(self.written):
            if message.get("id") == request_id and "method" not in message:
                return index
        raise AssertionError(f"no response to {request_id}")


class ForkAgentSideConnection:
    """The fork's AgentSideConnection: ``_conn`` plus a model-taking ``session_update``."""

    def __init__(self, conn: ForkConnection | None = None) -> None:
        self._conn = conn or ForkConnection()

    async def session_update(self, params: Any) -> None:
        data = params.model_dump(mode="json", by_alias=True, exclude_none=True)
        await self._conn.send_notification("session/update", data)


class ForkClientSideConnection:
    """The fork's client side: the same inner connection, client methods."""

    def __init__(self) -> None:
        self._conn = ForkConnection()

    async def new_session(self, params: Any) -> Any: ...

    async def prompt(self, params: Any) -> Any: ...
