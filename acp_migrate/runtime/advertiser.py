"""Per-connection slash-command advertisement that is correct on the wire.

Why this exists: a ``session/update`` sent while a ``session/new`` (load, resume,
fork) handler is still running reaches the client *before* the response, and
clients drop updates for a session id they do not know yet. The SDK writes
every outgoing message through one FIFO and calls its stream observers for an
outgoing response only after that response has been written. So the advertiser
watches the stream and holds a session's commands until it has seen the
session's setup response go out; anything it sends after that is behind the
response on the wire.

Wiring (once per connection)::

    class MyAgent:
        def __init__(self):
            self.commands = CommandAdvertiser()

        def on_connect(self, conn):
            self.commands.bind(conn)  # also registers self.commands.observer

Then in handlers: ``return self.commands.attach(NewSessionResponse(...), sid, cmds)``
and, at any time, ``await self.commands.publish(sid, cmds)``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import logging
import threading
from collections.abc import Iterable
from typing import Any

from .models import Command, _copy_json, coerce_commands

__all__ = ["CommandAdvertiser"]

logger = logging.getLogger(__name__)

_NEW, _LOAD, _RESUME, _FORK, _CLOSE, _INIT = range(6)
_KINDS = {
    "session/new": _NEW,
    "session/load": _LOAD,
    "session/resume": _RESUME,
    "session/fork": _FORK,
    "session/close": _CLOSE,
    "initialize": _INIT,
}
_SETUP_KINDS = (_NEW, _LOAD, _RESUME, _FORK)

_SETUP, _OPEN = 0, 1

# (advertiser, request id) of the setup request whose handler is running. The
# observer sets it in the receive loop just before the SDK creates the handler
# task, so the handler (and tasks it starts) inherit it. Lets a failed
# session/new, whose error response carries no session id, drop what it held.
_CURRENT_REQUEST: contextvars.ContextVar[tuple[Any, Any] | None] = contextvars.ContextVar(
    "acp_migrate_setup_request", default=None
)

_RESPONSE_TYPES: dict[type, type] = {}


class _Request:
    __slots__ = ("kind", "session_id", "linked")

    def __init__(self, kind: int, session_id: str | None) -> None:
        self.kind = kind
        self.session_id = session_id
        self.linked: list[str] = []


class _Session:
    __slots__ = ("state", "latest", "sent", "request")

    def __init__(self, state: int, latest: list[dict[str, Any]] | None, request: _Request | None) -> None:
        self.state = state
        self.latest = latest  # list the agent wants the client to have (None: not said yet)
        self.sent: list[dict[str, Any]] = []  # list the client has (empty until told otherwise)
        self.request = request  # pending setup request while state is _SETUP


class CommandAdvertiser:
    """Advertises per-session slash commands on one ACP agent connection.

    Promises:

    * Every list is a complete replacement; ``[]`` clears. ``null`` is never sent.
    * Nothing for a session goes out before its setup response (``session/new``,
      ``load``, ``resume``, ``fork``); lists published earlier are held and only
      the latest is sent, right after the response.
    * Nothing is sent for a session whose setup failed.
    * Identical consecutive lists are sent once.
    * After a successful ``session/close`` (or :meth:`forget`) the session's state
      is dropped and later publishes for it are ignored.
    * State is per live session plus small fixed-size rings, so it does not grow
      with the number of sessions a connection has seen.

    Setup results carry ``availableCommands`` (non-empty only) for new, resume
    and fork when the peer negotiated protocol v2 (the ``protocolVersion`` of the
    ``initialize`` result). A v1 peer cannot read that field, so it gets one
    ``available_commands_update`` right after the response instead; pass
    ``v1_followup=False`` to put the field in v1 results too and skip that
    notification. ``session/load`` results never carry the field (the spec does
    not list it), so a loaded session always gets the notification.

    All methods except :meth:`publish_threadsafe` and :meth:`forget` must be
    called on the connection's event loop.

    Args:
        v1_followup: send v1 peers the list as a notification after the setup
            response instead of in the result.
        max_held: how many sessions unknown to the connection (publish before any
            setup request names them, outside a setup handler) are held; the
            oldest is dropped beyond that.
        remember_closed: how many closed session ids are remembered so late
            publishes for them are ignored.
    """

    def __init__(self, *, v1_followup: bool = True, max_held: int = 256, remember_closed: int = 256) -> None:
        self.v1_followup = v1_followup
        self._max_held = max(1, max_held)
        self._max_closed = max(0, remember_closed)
        self._max_requests = 4096
        self._version = 1  # SDK 0.12.x speaks v1; replaced by the initialize result
        self._conn: Any = None
        self._send_notification: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: int | None = None
        self._requests: dict[Any, _Request] = {}
        self._sessions: dict[str, _Session] = {}
        self._held: dict[str, list[dict[str, Any]]] = {}  # unknown sessions, oldest first
        self._closed: dict[str, None] = {}  # ordered set, oldest first
        self._dirty: dict[str, None] = {}  # ordered set of open sessions to send
        self._busy = False  # a drain is running or scheduled
        self._idle: asyncio.Future[None] | None = None  # resolved when the drain ends
        self._task: asyncio.Task[None] | None = None
        # A plain attribute, not a bound method made on each access: cheap per
        # message and stable for ``in observers`` checks.
        self.observer = self._observe

    # ------------------------------------------------------------------ wiring

    def bind(self, conn: Any) -> CommandAdvertiser:
        """Bind to the connection commands are sent on; call it from ``on_connect``.

        ``conn`` is the ``AgentSideConnection`` the SDK passes to
        ``Agent.on_connect`` (or a low-level ``acp.connection.Connection``).
        Registers :attr:`observer` on it unless it is there already, so passing
        ``observers=[advertiser.observer]`` to ``run_agent`` is optional. One
        advertiser serves one connection. Returns ``self``.
        """
        if self._conn is not None and self._conn is not conn:
            raise RuntimeError("CommandAdvertiser is already bound to another connection")
        # AgentSideConnection has no public raw send; its Connection (``_conn``)
        # does. Raw sends are needed: the SDK models drop v2 ``type`` fields.
        inner = conn if callable(getattr(conn, "add_observer", None)) else getattr(conn, "_conn", None)
        send = getattr(inner, "send_notification", None)
        if inner is None or not callable(send):
            raise TypeError(f"cannot send notifications through {type(conn).__name__}")
        self._conn = conn
        self._send_notification = send
        observers = getattr(inner, "_observers", None)
        if not (isinstance(observers, list) and self.observer in observers):
            inner.add_observer(self.observer)
        try:
            self._set_loop(asyncio.get_running_loop())
        except RuntimeError:
            pass  # picked up from the first observed message
        return self

    @property
    def protocol_version(self) -> int:
        """Negotiated protocol version (1 until an ``initialize`` result is seen)."""
        return self._version

    # ------------------------------------------------------------------ API

    def attach(
        self, response: Any, session_id: str | None = None, commands: Iterable[Any] | None = None
    ) -> Any:
        """Record ``commands`` for a session being set up; return the response to send.

        Call it in a ``new_session``/``load_session``/``resume_session``/
        ``fork_session`` handler and return what it returns. ``session_id`` may be
        left out when the response names the session (new and fork results); load
        and resume results do not, so pass the request's id. For new, resume and
        fork on a v2 peer (or with ``v1_followup=False``) a non-empty list is
        added as ``availableCommands``: an SDK response model comes back as an
        instance of a subclass with that field (``isinstance`` still holds), a
        dict as a new dict. Otherwise the response is returned unchanged and the
        list follows in a notification right after the response. ``None`` is
        accepted for ``load_session``.
        """
        if session_id is None:
            session_id = _session_id_of(response)
        wire = self._wire(coerce_commands(commands))
        if self._apply(session_id, wire) and not self._busy:
            self._kick()  # attach on an already open session acts like publish
        if not wire or not self._field_allowed(self._is_load(response)):
            return response
        return _with_commands(response, wire)

    async def publish(self, session_id: str, commands: Iterable[Any] | None) -> None:
        """Make ``commands`` the session's complete list (``[]`` or ``None`` clears).

        Sent at once if the session is open and the list changed; held (only the
        latest kept) while the session's setup response has not gone out;
        ignored for a closed session. Returns once this list (or a newer one
        published meanwhile, which replaces it) is handed to the transport.
        ``commands`` may hold :class:`Command`, wire dicts, or SDK
        ``AvailableCommand`` models; invalid items raise.
        """
        if not self._apply(session_id, self._wire(coerce_commands(commands))):
            return
        if self._busy:
            # The running drain picks this list up before it goes idle.
            await asyncio.shield(self._idle_future())
            return
        self._busy = True
        try:
            await self._drain()
        finally:
            self._end_busy()

    async def clear(self, session_id: str) -> None:
        """Advertise no commands: same as ``publish(session_id, [])``."""
        await self.publish(session_id, ())

    def publish_threadsafe(self, session_id: str, commands: Iterable[Any] | None) -> concurrent.futures.Future[None]:
        """:meth:`publish` from any thread; returns a future for its completion.

        Commands are validated in the calling thread. Calls are applied in the
        order they are made. Do not wait on the future from the loop's own thread.
        """
        loop = self._loop
        if loop is None:
            raise RuntimeError("CommandAdvertiser is not bound to a running connection yet")
        coerced = coerce_commands(commands)
        return asyncio.run_coroutine_threadsafe(self.publish(session_id, coerced), loop)

    def forget(self, session_id: str) -> None:
        """Drop a session as if it were closed; later publishes for it are ignored.

        Call it when your server drops a session without a ``session/close``.
        Safe from any thread (applied on the loop when called elsewhere).
        """
        if self._loop is not None and self._thread != threading.get_ident() and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._drop, session_id, True)
        else:
            self._drop(session_id, True)

    def stats(self) -> dict[str, int]:
        """Sizes of the internal tables (for tests and debugging)."""
        return {
            "sessions": len(self._sessions),
            "pending_requests": len(self._requests),
            "held_unknown": len(self._held),
            "queued": len(self._dirty),
            "closed_remembered": len(self._closed),
        }

    # ------------------------------------------------------------------ observer

    def _observe(self, event: Any) -> None:
        """Stream observer: pass it in ``observers=[...]`` or let :meth:`bind` add it."""
        message = event.message
        if event.direction == "outgoing":
            # Only responses to requests we track matter.
            if not self._requests or "method" in message:
                return
            request = self._requests.pop(message.get("id"), None)
            if request is not None:
                self._on_response(request, message)
            return
        if self._loop is None:
            self._set_loop(asyncio.get_running_loop())
        method = message.get("method")
        kind = _KINDS.get(method) if method is not None and "id" in message else None
        if kind is None:
            if _CURRENT_REQUEST.get() is not None:
                _CURRENT_REQUEST.set(None)  # don't leak into unrelated handler tasks
            return
        params = message.get("params")
        session_id = params.get("sessionId") if isinstance(params, dict) else None
        if not isinstance(session_id, str) or kind in (_NEW, _FORK, _INIT):
            session_id = None  # fork's sessionId is the source; the new id is in the result
        request = _Request(kind, session_id)
        request_id = message["id"]
        self._requests[request_id] = request
        if len(self._requests) > self._max_requests:  # only if responses never come
            self._forget_request(self._requests.pop(next(iter(self._requests))))
        if kind in _SETUP_KINDS:
            _CURRENT_REQUEST.set((self, request_id))
            if session_id is not None:  # load/resume: re-advertise after the response
                self._closed.pop(session_id, None)
                session = self._sessions.get(session_id)
                if session is None:
                    session = _Session(_SETUP, self._held.pop(session_id, None), request)
                    self._sessions[session_id] = session
                else:
                    session.state, session.sent, session.request = _SETUP, [], request
                request.linked.append(session_id)
        elif _CURRENT_REQUEST.get() is not None:
            _CURRENT_REQUEST.set(None)

    def _on_response(self, request: _Request, message: dict[str, Any]) -> None:
        kind = request.kind
        result = message.get("result")
        ok = "error" not in message
        if kind == _INIT:
            version = result.get("protocolVersion") if ok and isinstance(result, dict) else None
            if isinstance(version, int) and not isinstance(version, bool):
                self._version = version
            return
        if kind == _CLOSE:
            if ok and request.session_id is not None:
                self._drop(request.session_id, True)
            return
        session_id = request.session_id
        if kind in (_NEW, _FORK):
            session_id = result.get("sessionId") if ok and isinstance(result, dict) else None
            if not isinstance(session_id, str):
                session_id = None
        # Setup failed (or named another session): nothing is ever sent for these.
        self._forget_request(request, keep=session_id if ok else None)
        if not ok or session_id is None:
            return
        self._closed.pop(session_id, None)
        session = self._sessions.get(session_id)
        if session is None:
            session = _Session(_SETUP, self._held.pop(session_id, None), None)
            self._sessions[session_id] = session
        session.state, session.request = _OPEN, None
        # What the client got in the result is what it has now.
        field = result.get("availableCommands") if isinstance(result, dict) else None
        session.sent = field if isinstance(field, list) and self._field_allowed(kind == _LOAD) else []
        if session.latest is None:
            session.latest = session.sent
        elif session.latest != session.sent:
            self._dirty[session_id] = None
            if not self._busy:
                self._kick()

    # ------------------------------------------------------------------ internals

    def _forget_request(self, request: _Request, keep: str | None = None) -> None:
        for linked in request.linked:
            session = self._sessions.get(linked)
            if linked != keep and session is not None and session.request is request:
                del self._sessions[linked]

    def _set_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._thread = threading.get_ident()

    def _field_allowed(self, is_load: bool) -> bool:
        return not is_load and (self._version >= 2 or not self.v1_followup)

    def _is_load(self, response: Any) -> bool:
        if response is None:
            return True  # only load_session may return None
        current = _CURRENT_REQUEST.get()
        if current is not None and current[0] is self:
            request = self._requests.get(current[1])
            if request is not None:
                return request.kind == _LOAD
        try:
            from acp.schema import LoadSessionResponse
        except ImportError:  # pragma: no cover - the SDK is how responses are made
            return False
        return isinstance(response, LoadSessionResponse)

    def _wire(self, commands: tuple[Command, ...]) -> list[dict[str, Any]]:
        version = self._version
        return [command.wire_ref(version) for command in commands]

    def _apply(self, session_id: str, wire: list[dict[str, Any]]) -> bool:
        """Record the latest list; True if the session now needs a send."""
        session = self._sessions.get(session_id)
        if session is not None:
            if session.state == _OPEN:
                if wire == session.latest:
                    return False
                session.latest = wire
                if wire == session.sent:
                    return False  # back to what the client has; a queued send is skipped
                self._dirty[session_id] = None
                return True
            session.latest = wire  # held until the setup response is out
            return False
        current = _CURRENT_REQUEST.get()
        if current is not None and current[0] is self:
            request = self._requests.get(current[1])
            if request is not None and request.kind in _SETUP_KINDS:
                # A setup handler (or a task it started) names a new session.
                self._held.pop(session_id, None)
                self._closed.pop(session_id, None)
                self._sessions[session_id] = _Session(_SETUP, wire, request)
                request.linked.append(session_id)
                return False
        if session_id in self._closed:
            return False  # late publish for a closed session
        # Unknown session (e.g. a thread publishing before the handler attached):
        # hold it in a bounded table until a setup response names it.
        self._held.pop(session_id, None)
        self._held[session_id] = wire
        if len(self._held) > self._max_held:
            del self._held[next(iter(self._held))]
        return False

    def _drop(self, session_id: str, remember: bool) -> None:
        self._sessions.pop(session_id, None)
        self._held.pop(session_id, None)
        self._dirty.pop(session_id, None)
        if remember and self._max_closed:
            self._closed.pop(session_id, None)
            self._closed[session_id] = None
            if len(self._closed) > self._max_closed:
                del self._closed[next(iter(self._closed))]

    def _idle_future(self) -> asyncio.Future[None]:
        if self._idle is None:
            self._idle = asyncio.get_running_loop().create_future()
        return self._idle

    def _end_busy(self) -> None:
        self._busy = False
        if self._dirty:
            self._kick()  # waiters stay on the same future until all is sent
            return
        idle, self._idle = self._idle, None
        if idle is not None and not idle.done():
            idle.set_result(None)

    def _kick(self) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            self._dirty.clear()  # nothing can be sent any more
            self._busy, self._idle = False, None
            return
        self._busy = True
        self._task = loop.create_task(self._drain())
        self._task.add_done_callback(self._drained)

    def _drained(self, task: asyncio.Task[None]) -> None:
        self._task = None
        if task.cancelled():
            self._dirty.clear()  # the connection is shutting down
        elif task.exception() is not None:
            logger.error("sending available_commands_update failed", exc_info=task.exception())
            self._dirty.clear()
        self._end_busy()

    async def _drain(self) -> None:
        # The only place that sends, and only one runs at a time, so sends keep
        # the order of publishes whatever the transport does inside send.
        while self._dirty:
            session_id = next(iter(self._dirty))
            del self._dirty[session_id]
            session = self._sessions.get(session_id)
            if session is None or session.state != _OPEN or session.latest is None:
                continue
            wire = session.latest
            if wire == session.sent:
                continue
            session.sent = wire
            send = self._send_notification
            if send is None:
                logger.error("CommandAdvertiser.bind(conn) was never called; commands not sent")
                self._dirty.clear()
                return
            params = {
                "sessionId": session_id,
                "update": {"sessionUpdate": "available_commands_update", "availableCommands": _fresh(wire)},
            }
            try:
                await send("session/update", params)
            except (ConnectionError, RuntimeError) as exc:
                logger.debug("available_commands_update not sent: %s", exc)
                self._dirty.clear()
                return


def _fresh(wire: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # The cached wire dicts must not reach an in-memory peer that could mutate
    # them; two levels (command, input) cover everything but _meta values.
    return [{**c, "input": {**c["input"]}} if "input" in c else {**c} for c in wire]


def _session_id_of(response: Any) -> str:
    if isinstance(response, dict):
        session_id = response.get("sessionId", response.get("session_id"))
    else:
        session_id = getattr(response, "session_id", None)
    if not isinstance(session_id, str):
        raise TypeError(
            f"{type(response).__name__} names no session: pass session_id= to attach()"
        )
    return session_id


def _with_commands(response: Any, wire: list[dict[str, Any]]) -> Any:
    if isinstance(response, dict):
        return {**response, "availableCommands": _copy_json(wire)}
    from pydantic import BaseModel

    if not isinstance(response, BaseModel):
        raise TypeError(f"cannot attach commands to {type(response).__name__}")
    cls = _response_type(type(response))
    values = dict(response.__dict__)
    values["available_commands"] = _copy_json(wire)
    return cls.model_construct(_fields_set=response.model_fields_set | {"available_commands"}, **values)


def _response_type(base: type) -> type:
    """``base`` plus an aliased ``availableCommands`` field left out when empty."""
    cls = _RESPONSE_TYPES.get(base)
    if cls is not None:
        return cls
    if "available_commands" in getattr(base, "model_fields", {}):
        _RESPONSE_TYPES[base] = base  # already has it (a future SDK, or ours)
        return base
    from pydantic import Field, model_serializer

    def _omit_empty(self: Any, handler: Any) -> Any:
        data = handler(self)
        if isinstance(data, dict):
            for key in ("availableCommands", "available_commands"):
                if key in data and not data[key]:
                    del data[key]  # never null, never an empty list in a setup result
        return data

    namespace = {
        "__module__": __name__,
        "__doc__": f"{base.__name__} with the ``availableCommands`` setup field.",
        "__annotations__": {"available_commands": list[dict[str, Any]]},
        "available_commands": Field(default_factory=list, alias="availableCommands"),
        "_omit_empty_commands": model_serializer(mode="wrap")(_omit_empty),
    }
    cls = type(base.__name__, (base,), namespace)
    _RESPONSE_TYPES[base] = cls
    return cls
