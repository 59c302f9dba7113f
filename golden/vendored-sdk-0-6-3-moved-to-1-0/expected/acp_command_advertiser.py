# acp-migrate: vendored runtime 0.2.0, written by `acp-migrate fix`.
# Run it again to refresh this file; do not edit it.
"""Slash commands per session for an ACP agent (acp-migrate's shim).

A client drops a session/update for a session it does not know yet: bound
to the connection, the advertiser sends each session its commands right
behind its setup response (the SDK tells stream observers of a response
once it is written). Wire it once per connection: bind(conn) in on_connect
or first thing in initialize, then advertise(get_commands), a callable or
a list. Every available_commands_update sent on the connection goes
through it. Documentation: acp-migrate's runtime docs.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from typing import Any

from acp.connection import Connection


class CommandAdvertiser:
    """Advertises slash commands per session on one ACP connection."""

    # Requests whose params name the session; new and fork results name it.
    _NAMED = ("session/load", "session/resume", "loadSession")
    _UNNAMED = ("session/new", "session/fork", "newSession")
    _CLOSE = "session/close"
    # The SDK's request handler tasks (0.7+, and 0.4-0.6's dispatcher).
    _HANDLERS = ("acp.Connection.request", "acp.Dispatcher.request")
    _UPDATE = "available_commands_update"
    # The setup request whose handler runs. SDK 0.7+ create handler tasks
    # in the receive loop, right after the observer has set this.
    _REQUEST = contextvars.ContextVar(
        "acp_command_advertiser_request",
        default=None,
    )

    def __init__(self) -> None:
        self._source: Any = ()  # what advertise() was given
        self._inner: Any = None  # the JSON-RPC connection, once bound
        self._send: Any = None  # its own send_notification
        self._lock = asyncio.Lock()  # one list on its way at a time
        self._pending: dict[Any, tuple[str, Any]] = {}  # id: method, sid
        self._setup: dict[str, Any] = {}  # held session: what it waits for
        self._own: dict[str, list[Any]] = {}  # session: its own list
        self._sent: dict[str, list[Any]] = {}  # open session: its list
        self._early = 0  # requests read before bind, not answered yet
        self._warned: set[str] = set()

    def bind(self, conn: Any) -> CommandAdvertiser:
        """Watch the agent's connection (binding it again does nothing)."""
        if type(conn).__module__ == "unittest.mock":
            return self  # a test double: nothing goes on a wire
        if conn is None:  # an agent never connected (a unit test?)
            self._warn("bind(None)", "not connected: nothing is advertised")
            return self
        inner = conn
        if not isinstance(inner, Connection):
            inner = getattr(conn, "_conn", None)
        client = hasattr(conn, "new_session") or hasattr(conn, "newSession")
        if not isinstance(inner, Connection) or client:
            raise TypeError("bind the agent side of a connection")
        if self._inner is inner:
            return self
        if self._inner is not None:
            raise RuntimeError("already bound to another connection")
        send = inner.send_notification
        if getattr(send, "__name__", None) == "_intercept":  # any copy's
            raise RuntimeError("the connection has an advertiser already")
        self._inner, self._send = inner, send
        inner.send_notification = self._intercept
        if hasattr(inner, "add_observer"):
            inner.add_observer(self._observe)
        else:  # a fork that only keeps the list
            inner._observers.append(self._observe)
        tasks = getattr(getattr(inner, "_tasks", None), "_tasks", None)
        for task in tasks if isinstance(tasks, set) else ():
            if task.get_name() in self._HANDLERS and not task.done():
                self._early += 1  # bound late: this request went by unseen
        task = getattr(inner, "_recv_task", None)
        if not isinstance(task, asyncio.Task):
            return self
        # conn.listen() on a connection that listens (SDK 0.12.1) runs a
        # second receive loop: one fails (two readers), and the SDK takes
        # that for a closed connection while the other reads on.
        failed = task.done() and not task.cancelled()
        failed = failed and isinstance(task.exception(), RuntimeError)
        if failed or not task.done() and getattr(inner, "_disconnected", None):
            self._warn("a second receive loop failed", "await listen() once")
            inner._disconnected = False  # and after the SDK's error handler
            loop = asyncio.get_running_loop()
            loop.call_soon(setattr, inner, "_disconnected", False)
        if not task.done():  # listen() waits for the running loop instead
            inner.main_loop = lambda: task
        return self

    def advertise(self, commands: Any) -> CommandAdvertiser:
        """Commands every session gets: a list, or a callable giving one."""
        self._source = commands
        return self

    def commands(self, session_id: str | None = None) -> list[Any]:
        """The session's own last list, then the advertised ones it lacks."""
        own = self._own.get(session_id, []) if session_id else []
        return self._merged(own)

    def _merged(self, own: list[Any]) -> list[Any]:
        source = self._source
        advertised = (source() if callable(source) else source) or ()
        merged, names = [], set()
        for c in [c for c in [*own, *advertised] if c is not None]:
            name = c.get("name") if isinstance(c, dict) else c.name
            if name not in names:
                names.add(name)
                merged.append(c)
        return merged

    async def _intercept(self, method: str, params: Any = None) -> None:
        update = params.get("update") if isinstance(params, dict) else None
        kind = isinstance(update, dict) and update.get("sessionUpdate")
        if method != "session/update" or kind != self._UPDATE:
            return await self._send(method, params)
        sid = params.get("sessionId")
        own = update.get("availableCommands") or []
        if sid in self._setup or sid in self._sent:
            self._own[sid] = own
            return await self._flush(sid)  # does nothing while held
        request = self._REQUEST.get(self)  # self: never set here
        unnamed = (m in self._UNNAMED for m, _ in self._pending.values())
        if request in self._pending or any(unnamed):
            # Maybe the session a setup request is opening: held.
            self._own[sid] = own
            self._setup[sid] = request if request in self._pending else None
            return None
        if request is self and self._early:
            # From a request read before bind, maybe a setup: held until a
            # response names the session, or its handler's response is out,
            # or all those requests are answered.
            task = asyncio.current_task()
            mine = task is not None and task.get_name() in self._HANDLERS
            self._own[sid], self._setup[sid] = own, task if mine else self
            return None
        return await self._flush(sid, own)

    def _observe(self, event: Any) -> Any:
        message = event.message
        method, request = message.get("method"), message.get("id")
        if event.direction != "outgoing":
            if method is not None and "id" in message:
                self._requested(method, request, message.get("params"))
            return None
        if method is not None:
            return None
        if request not in self._pending:
            return self._unasked(message)
        method, sid = self._pending.pop(request)
        result = message.get("result")
        if method not in (*self._NAMED, *self._UNNAMED, self._CLOSE):
            return None  # tracked only to tell the requests read before bind
        if "error" in message:
            sid = None
        elif method in self._UNNAMED:
            sid = result.get("sessionId") if isinstance(result, dict) else None
        if method == self._CLOSE:
            for table in (self._own, self._sent, self._setup):
                table.pop(sid, None)
            return None
        return self._settle(request, method, sid, sid is not None)

    def _requested(self, method: str, request: Any, params: Any) -> None:
        sid = params.get("sessionId") if isinstance(params, dict) else None
        setup = method in self._NAMED or method in self._UNNAMED
        self._REQUEST.set(request if setup else None)
        if setup or method == self._CLOSE or self._early:
            named = method in self._NAMED or method == self._CLOSE
            self._pending[request] = (method, sid if named else None)
        if method in self._NAMED and isinstance(sid, str):
            self._setup[sid] = request

    def _unasked(self, message: Any) -> Any:
        # A response to a request read before bind (a client that did not
        # wait for the initialize answer): new and fork results name their
        # session; a load or resume result cannot be told from the others.
        early, self._early = self._early, max(0, self._early - 1)
        result = message.get("result")
        named = result.get("sessionId") if isinstance(result, dict) else None
        sid = named if isinstance(named, str) else None
        keys = set(result) if isinstance(result, dict) else set()
        unclear = sid is None and "error" not in message
        # An initialize or prompt result is no setup's.
        if early and unclear and not {"protocolVersion", "stopReason"} & keys:
            self._warn(  # a load or resume sent before the initialize answer
                "a request read before bind was answered naming no session",
                "bind in on_connect or the agent factory",
            )
        if sid in self._sent or not (early or sid):
            return None
        task = asyncio.current_task()  # the handler's, writing its response
        return self._settle(task, None, sid, "error" not in message)

    def _settle(self, request: Any, method: str, sid: Any, ok: bool) -> Any:
        """A setup response is out: sid is the session it opened, if any."""
        busy = any(m in self._UNNAMED for m, _ in self._pending.values())
        # Held without a request (SDK 0.4-0.6): a failed new or fork may
        # have been theirs; once none is pending, they were nobody's.
        settled = (not ok and method in self._UNNAMED) or not busy
        lists: list[Any] = []  # (session, a list to forward or None)
        if ok and sid is not None:
            self._sent[sid] = []  # a session set up again starts empty
            lists.append((sid, None))
        for held, link in list(self._setup.items()):
            mine = link == request
            # Held for a request read before bind: out once all are answered.
            early = link is self or isinstance(link, asyncio.Task)
            early = early and not mine and not self._early
            if held == sid:
                del self._setup[held]
            elif mine or (link is None and settled) or early:
                del self._setup[held]  # not this request's session after all
                if held in self._sent:  # still open: a reload failed
                    lists.append((held, None))
                elif ok or early:
                    lists.append((held, self._own.pop(held, [])))
                else:
                    self._own.pop(held, None)
        return self._flush_all(lists) if lists else None

    async def _flush_all(self, lists: list[Any]) -> None:
        for sid, own in lists:
            await self._flush(sid, own)

    async def _flush(self, sid: str, forward: Any = None) -> None:
        """Send the session its list (forward: one it never set up)."""
        async with self._lock:
            if forward is not None:
                wire = [_dump(c) for c in self._merged(forward)]
            elif sid in self._sent and sid not in self._setup:
                wire = [_dump(c) for c in self.commands(sid)]
                if wire == self._sent[sid]:
                    return  # what the client has
            else:
                return  # held, or closed
            update = {"sessionUpdate": self._UPDATE, "availableCommands": wire}
            params = {"sessionId": sid, "update": update}
            await self._send("session/update", params)  # may raise: not sent
            if forward is None and sid in self._sent:  # not closed meanwhile
                self._sent[sid] = wire

    def _warn(self, what: str, advice: str) -> None:
        if what not in self._warned:  # once per advertiser
            self._warned.add(what)
            log = logging.getLogger(__name__)
            log.warning("CommandAdvertiser: %s; %s", what, advice)


def _dump(command: Any) -> dict[str, Any]:
    """A command in wire form: dicts as they are, models dumped."""
    if isinstance(command, dict):
        return command
    return command.model_dump(mode="json", by_alias=True, exclude_none=True)


__all__ = ["CommandAdvertiser"]
