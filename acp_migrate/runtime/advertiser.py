"""Per-connection slash-command advertisement that is correct on the wire.

Why this exists: a ``session/update`` sent while a ``session/new`` (load, resume,
fork) handler is still running reaches the client *before* the response, and
clients drop updates for a session id they do not know yet. The SDK writes
every outgoing message through one FIFO and calls its stream observers for an
outgoing response only after that response has been written. So the advertiser
watches the stream and holds a session's commands until it has seen the
session's setup response go out; anything it sends after that is behind the
response on the wire.

Once bound, the advertiser owns the connection's command traffic: every
``available_commands_update`` sent on the connection, by any code, goes through
it (``bind`` wraps the inner connection's ``send_notification``).

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

from .models import Command, _copy_json, coerce_commands, parse_commands

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

_KEEP: Any = object()  # "leave this list as it is"
_UNSET: Any = object()  # a context the observer never ran in

# The SDK's request handler tasks (0.7+, and 0.4-0.6's dispatcher): those running
# when `bind` is called handle requests the advertiser never saw come in.
_HANDLER_TASKS = ("acp.Connection.request", "acp.Dispatcher.request")

# (advertiser, request id) of the setup request whose handler is running. The
# observer sets it in the receive loop just before the SDK creates the handler
# task, so the handler (and tasks it starts) inherit it. Lets a failed
# session/new, whose error response carries no session id, drop what it held.
_CURRENT_REQUEST: contextvars.ContextVar[tuple[Any, Any] | None] = contextvars.ContextVar(
    "acp_migrate_setup_request", default=None
)

_RESPONSE_TYPES: dict[type, type] = {}
_OWN_TYPES: set[type] = set()

_AGENT_SIDE = ("session_update", "sessionUpdate")
_CLIENT_SIDE = ("new_session", "newSession", "prompt")


class _Request:
    __slots__ = ("kind", "linked", "session_id")

    def __init__(self, kind: int, session_id: str | None) -> None:
        self.kind = kind
        self.session_id = session_id
        self.linked: list[str] = []


class _Session:
    __slots__ = ("_key", "_wire", "advertised", "always", "early", "own", "request", "restore", "sent", "state")

    def __init__(self) -> None:
        self.state = _SETUP
        self.own: tuple[Command, ...] | None = None  # the session's own list (None: not said yet)
        self.always: tuple[Command, ...] = ()  # commands the session always advertises
        self.advertised: tuple[Command, ...] = ()  # `advertise`'s, read at the last setup response
        self.sent: list[dict[str, Any]] = []  # list the client has (empty until told otherwise)
        self.request: _Request | None = None  # pending setup request while state is _SETUP
        self.restore: list[dict[str, Any]] | None = None  # what the client had, while an open session reloads
        self.early = False  # held for a request read before bind
        self._key: tuple[Any, Any, Any, int] | None = None  # (own, always, advertised, version) of _wire
        self._wire: list[dict[str, Any]] = []


class CommandAdvertiser:
    """Advertises per-session slash commands on one ACP agent connection.

    Promises:

    * Every list is a complete replacement; ``[]`` clears. ``null`` is never sent.
    * A session advertises its own list followed by its ``always`` commands
      (see :meth:`attach`), so no command of either is lost.
    * Nothing for a session goes out before its setup response (``session/new``,
      ``load``, ``resume``, ``fork``); lists published earlier are held and only
      the latest is sent, right after the response.
    * Nothing is sent for a session whose setup failed; a failed load or resume
      of an open session leaves it open.
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
        self._version = 1  # SDK 0.12.x speaks v1; replaced by the initialize result
        self._version_known = False  # an initialize result was seen
        self._detached = False  # bound to a test double (unittest.mock): advertises nothing
        self._warned_unbound = False
        self._warned: set[str] = set()  # what was logged once already
        self._early = 0  # requests read before bind (unobserved), not answered yet
        self._asked: set[Any] = set()  # other requests observed meanwhile, by id
        self._conn: Any = None
        self._inner: Any = None  # the JSON-RPC Connection that sends
        self._send_notification: Any = None  # its send_notification, unwrapped
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: int | None = None
        # Setup, close and initialize requests in flight, by JSON-RPC id. Not
        # bounded: each is a request the SDK is still handling, and its
        # response (always observed) removes it.
        self._requests: dict[Any, _Request] = {}
        self._sessions: dict[str, _Session] = {}
        self._held: dict[str, _Session] = {}  # unknown sessions, oldest first
        self._closed: dict[str, None] = {}  # ordered set, oldest first
        self._dirty: dict[str, None] = {}  # ordered set of open sessions to send
        self._inflight: str | None = None  # session whose list is being sent
        self._busy = False  # a drain is running or scheduled
        self._idle: asyncio.Future[None] | None = None  # resolved when the drain ends
        self._task: asyncio.Task[None] | None = None
        self._source: Any = None  # what `advertise` was given
        # A plain attribute, not a bound method made on each access: cheap per
        # message and stable for ``in observers`` checks.
        self.observer = self._observe

    # ------------------------------------------------------------------ wiring

    def bind(self, conn: Any) -> CommandAdvertiser:
        """Bind to the agent's connection; call it from ``on_connect`` or at the top of ``initialize``.

        ``conn`` is the ``AgentSideConnection`` (SDK 0.4-0.12, or a fork built
        the same way) or its low-level ``acp.connection.Connection``. Registers
        :attr:`observer` on it unless it is there already (so passing
        ``observers=[advertiser.observer]`` is optional) and routes every
        ``available_commands_update`` sent on the connection, by any code,
        through the advertiser. Binding the same connection again does nothing;
        one advertiser serves one connection. Returns ``self``.

        Bound late (in ``initialize``, or misused in a session handler), it counts the
        SDK's request handlers then running, whose requests it never saw, and holds
        lists it cannot place until those are answered. On a connection that listens
        already (SDK 0.12.1's ``AgentSideConnection``), a later ``conn.listen()`` waits
        for that receive loop instead of starting a second one.

        Raises:
            TypeError: ``conn`` is the client side of a connection, or not a
                connection the advertiser can send and observe through.
            RuntimeError: the advertiser is bound to another connection, or the
                connection already has another advertiser.
        """
        if conn is None:
            # Not connected yet (a unit test calls `initialize` on an agent it never
            # connected): nothing can be sent, and a later bind still takes the connection.
            return self
        if type(conn).__module__ == "unittest.mock":
            # A project's own unit tests hand agents a Mock client: nothing can be
            # sent or observed, so the advertiser stands aside (as before migration).
            self._detached = True
            return self
        inner = _inner_connection(conn)
        if self._inner is not None:
            if self._inner is inner:
                return self
            raise RuntimeError("CommandAdvertiser is already bound to another connection")
        current = inner.send_notification
        owner = getattr(current, "_acp_migrate_advertiser", None)
        if owner is not None:
            raise RuntimeError("this connection already has a CommandAdvertiser: use one per connection")
        self._conn = conn
        self._inner = inner
        # Raw sends are needed: the SDK models drop v2 input ``type`` fields.
        self._send_notification = current
        inner.send_notification = self._make_interceptor(current)
        observers = getattr(inner, "_observers", None)
        if not (isinstance(observers, list) and self.observer in observers):
            if callable(getattr(inner, "add_observer", None)):
                inner.add_observer(self.observer)
            else:  # a fork without add_observer keeps the same list
                observers.append(self.observer)
        try:
            self._set_loop(asyncio.get_running_loop())
        except RuntimeError:
            pass  # picked up from the first observed message
        tasks = getattr(getattr(inner, "_tasks", None), "_tasks", None)
        if isinstance(tasks, set):
            self._early = sum(1 for t in tasks if t.get_name() in _HANDLER_TASKS and not t.done())
        recv = getattr(inner, "_recv_task", None)
        if isinstance(recv, asyncio.Task) and not recv.done():
            # conn.listen() on a connection that already listens (SDK 0.12.1) would start
            # a second receive loop, whose failure makes the SDK refuse every notification.
            inner.main_loop = lambda: recv
        elif getattr(inner, "_disconnected", False):
            self._warn_once(
                "listen",
                "CommandAdvertiser.bind(): the connection refuses notifications (its receive loop "
                "failed: does the agent await conn.listen() on a connection that already listens?); "
                "no commands can be sent on it. Use run_agent, or bind in on_connect",
            )
        return self

    @property
    def protocol_version(self) -> int:
        """Negotiated protocol version (1 until an ``initialize`` result is seen)."""
        return self._version

    # ------------------------------------------------------------------ API

    def advertise(self, commands: Any) -> CommandAdvertiser:
        """Commands every session advertises after its own list: an iterable (re-read at
        each setup response) or a zero-argument callable (called at each); returns ``self``.

        The connection-level form of ``attach(..., always=...)``: handlers need no edit.
        Items are :class:`Command`, wire dicts or SDK ``AvailableCommand`` models.
        """
        self._source = commands
        return self

    def commands(self, session_id: str | None = None) -> list[Any]:
        """What ``session_id`` advertises: its own last list, then its ``always`` and the
        advertised commands it lacks by name; with no session, the advertised ones alone.
        Advertised items come back as given. Works before and without :meth:`bind`."""
        session = None if session_id is None else self._sessions.get(session_id) or self._held.get(session_id)
        head = [*(session.own or ()), *session.always] if session is not None else []
        found, names = [], set()
        for command in [*head, *self._read_advertised()]:
            name = command.get("name") if isinstance(command, dict) else command.name
            if name not in names:
                names.add(name)
                found.append(command)
        return found

    def _read_advertised(self) -> list[Any]:
        source = self._source
        return list((source() if callable(source) else source) or ())

    def attach(
        self,
        response: Any,
        session_id: str | None = None,
        commands: Iterable[Any] | None = None,
        *,
        always: Iterable[Any] | None = None,
    ) -> Any:
        """Record a session's commands in its setup handler; return the response to send.

        Call it in a ``new_session``/``load_session``/``resume_session``/
        ``fork_session`` handler and return what it returns. ``session_id`` may be
        left out when the response names the session (new and fork results); load
        and resume results do not, so pass the request's id.

        ``commands`` becomes the session's own list (as :meth:`publish` does;
        ``None`` leaves it as it is). ``always`` are commands the session always
        advertises, after its own list (``None`` leaves them as they are; a later
        ``attach`` for the session replaces them).

        For new, resume and fork on a v2 peer (or with ``v1_followup=False``) a
        non-empty list is added as ``availableCommands``: an SDK response model
        comes back as an instance of a subclass with that field (``isinstance``
        still holds), a dict as a new dict. Otherwise the response is returned
        as it is (minus a ``null`` or empty ``availableCommands``) and the list
        follows in a notification right after the response. ``None`` is
        accepted for ``load_session``.
        """
        if not self._bound("attach"):
            return _without_null(response)
        if session_id is None:
            session_id = _session_id_of(response)
        own = _KEEP if commands is None else coerce_commands(commands)
        kept = None if always is None else coerce_commands(always)
        if self._set(session_id, own, kept) and not self._busy:
            self._kick()  # attach on an already open session acts like publish
        session = self._sessions.get(session_id) or self._held.get(session_id)
        if session is not None:
            wire = self._advertised(session)
        else:  # a closed session: ignored, but the response still says what was asked
            wire = _merged(() if own is _KEEP else own, kept or (), self._version)
        if wire and self._field_allowed(self._is_load(response, session)):
            return _with_commands(response, wire)
        return _without_null(response)

    async def publish(self, session_id: str, commands: Iterable[Any] | None) -> None:
        """Make ``commands`` the session's own list (``[]`` or ``None`` clears it).

        The session advertises that list followed by its ``always`` commands.
        Sent at once if the session is open and what it advertises changed;
        held (only the latest kept) while the session's setup response has not
        gone out; ignored for a closed session. Returns once this list (or a
        newer one published meanwhile, which replaces it) is handed to the
        transport, or at once when it is held or ignored. ``commands`` may hold
        :class:`Command`, wire dicts, or SDK ``AvailableCommand`` models;
        invalid items raise.
        """
        if not self._bound("publish"):
            return
        if self._set(session_id, coerce_commands(commands)):
            await self._flush()

    async def clear(self, session_id: str) -> None:
        """Clear the session's own list: same as ``publish(session_id, [])``."""
        await self.publish(session_id, ())

    def publish_threadsafe(self, session_id: str, commands: Iterable[Any] | None) -> concurrent.futures.Future[None]:
        """:meth:`publish` from any thread; returns a future for its completion.

        Commands are validated in the calling thread. Calls are applied in the
        order they are made, also relative to :meth:`publish` calls on the
        loop's own thread (there it applies at once). Do not wait on the future
        from the loop's own thread.
        """
        if not self._bound("publish_threadsafe"):
            done: concurrent.futures.Future[None] = concurrent.futures.Future()
            done.set_result(None)
            return done
        loop = self._loop
        if loop is None:
            raise RuntimeError("CommandAdvertiser is not bound to a running connection yet")
        coerced = coerce_commands(commands)
        future: concurrent.futures.Future[None] = concurrent.futures.Future()
        if self._thread == threading.get_ident():
            self._publish_now(session_id, coerced, future)
        else:
            loop.call_soon_threadsafe(self._publish_now, session_id, coerced, future)
        return future

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

    # ------------------------------------------------------------------ interception

    def _make_interceptor(self, send: Any) -> Any:
        set_list = self._set
        flush = self._flush

        async def send_notification(method: str, params: Any = None) -> None:
            # Every notification on the connection comes here; only commands
            # updates are taken, everything else goes straight through.
            if method == "session/update" and isinstance(params, dict):
                update = params.get("update")
                if isinstance(update, dict) and update.get("sessionUpdate") == "available_commands_update":
                    session_id = params.get("sessionId")
                    if isinstance(session_id, str):
                        own = tuple(parse_commands(update.get("availableCommands")))
                        if set_list(session_id, own):
                            await flush()
                        return None
            return await send(method, params)

        send_notification._acp_migrate_advertiser = self  # type: ignore[attr-defined]
        send_notification.__wrapped__ = send  # type: ignore[attr-defined]
        return send_notification

    # ------------------------------------------------------------------ observer

    def _observe(self, event: Any) -> None:
        """Stream observer: pass it in ``observers=[...]`` or let :meth:`bind` add it."""
        message = event.message
        if event.direction == "outgoing":
            if "method" in message:
                return  # only responses matter
            if self._requests:
                request = self._requests.pop(message.get("id"), None)
                if request is not None:
                    self._on_response(request, message)
                    return
            result = message.get("result")
            if not self._version_known and isinstance(result, dict) and "protocolVersion" in result:
                # Bound inside the initialize handler: its request went by
                # unseen, its result (the only one with protocolVersion) does not.
                self._learn_version(result)
            if self._early:
                if message.get("id") in self._asked:
                    self._asked.discard(message.get("id"))
                else:
                    self._on_unasked(message, early=True)
            elif isinstance(result, dict) and "sessionId" in result:
                self._on_unasked(message, early=False)
            return
        if self._loop is None:
            self._set_loop(asyncio.get_running_loop())
        method = message.get("method")
        kind = _KINDS.get(method) if method is not None and "id" in message else None
        if kind is None:
            if _CURRENT_REQUEST.get(_UNSET) is not None:
                _CURRENT_REQUEST.set(None)  # don't leak into unrelated handler tasks
            if self._early and method is not None and "id" in message:
                self._asked.add(message["id"])
            return
        params = message.get("params")
        session_id = params.get("sessionId") if isinstance(params, dict) else None
        if not isinstance(session_id, str) or kind in (_NEW, _FORK, _INIT):
            session_id = None  # fork's sessionId is the source; the new id is in the result
        request = _Request(kind, session_id)
        request_id = message["id"]
        self._requests[request_id] = request
        if kind in _SETUP_KINDS:
            _CURRENT_REQUEST.set((self, request_id))
            if session_id is not None:  # load/resume: re-advertise after the response
                self._closed.pop(session_id, None)
                session = self._sessions.get(session_id)
                if session is None:
                    session = self._held.pop(session_id, None) or _Session()
                    self._sessions[session_id] = session
                elif session.state == _OPEN:
                    # Kept open if this request fails: what the client has now.
                    session.restore, session.state, session.sent = session.sent, _SETUP, []
                session.request = request
                request.linked.append(session_id)
        elif _CURRENT_REQUEST.get(_UNSET) is not None:
            _CURRENT_REQUEST.set(None)

    def _learn_version(self, result: dict[str, Any]) -> None:
        version = result.get("protocolVersion")
        if isinstance(version, int) and not isinstance(version, bool):
            self._version = version
        self._version_known = True

    def _on_response(self, request: _Request, message: dict[str, Any]) -> None:
        kind = request.kind
        result = message.get("result")
        ok = "error" not in message
        if kind == _INIT:
            if ok and isinstance(result, dict):
                self._learn_version(result)
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
        self._settle_request(request, keep=session_id if ok else None)
        if not ok or session_id is None:
            return
        self._open(session_id, result, kind)

    def _on_unasked(self, message: dict[str, Any], early: bool) -> None:
        """A response to a request the advertiser did not see come in (read before `bind`, when
        a client does not wait for the initialize answer): new and fork results name their
        session; a load or resume result cannot be told from the others."""
        if early:
            self._early -= 1
        result = message.get("result")
        named = result.get("sessionId") if isinstance(result, dict) else None
        if isinstance(named, str) and named not in self._sessions:
            if early or named not in self._closed:  # not a late answer naming a closed session
                self._open(named, result, _NEW)
        elif early and named is None and "error" not in message and not _initialize_or_prompt(result):
            self._warn_once(
                "unasked",
                "CommandAdvertiser: a request read before bind(conn) was answered naming no session "
                "(a session/load or session/resume the client sent before the initialize answer): "
                "the advertiser cannot tell which session it set up, so that session may miss its "
                "commands. Bind in on_connect (or the agent factory) so every request is seen",
            )
        if early and not self._early:
            self._asked.clear()
            # Every request read before bind is answered: what was held for them goes out.
            for session_id, session in list(self._held.items()):
                if session.early:
                    self._open(session_id, None, _LOAD)

    def _open(self, session_id: str, result: Any, kind: int) -> None:
        """The session's setup response is out: it is open, and gets its list."""
        if not self._version_known:
            self._warn_once(
                "version",
                "CommandAdvertiser: a session was set up before any initialize result was seen "
                "(bind(conn) ran after initialize was answered, or the client did not wait for it): "
                "its commands are rendered for protocol v1. Bind in on_connect, or first thing in "
                "initialize",
            )
        self._closed.pop(session_id, None)
        session = self._sessions.get(session_id)
        if session is None:
            session = self._held.pop(session_id, None) or _Session()
            self._sessions[session_id] = session
        session.state, session.request, session.restore, session.early = _OPEN, None, None, False
        if self._source is not None:
            session.advertised = coerce_commands(self._read_advertised())
        # What the client got in the result is what it has now.
        field = result.get("availableCommands") if isinstance(result, dict) else None
        session.sent = field if isinstance(field, list) and self._field_allowed(kind == _LOAD) else []
        if session.own is None and session.sent and session.sent != self._advertised(session):
            # A list the handler put in the result itself counts as the session's own.
            session.own = tuple(parse_commands(session.sent))
        self._queue(session_id, session)

    # ------------------------------------------------------------------ internals

    def _warn_once(self, what: str, message: str) -> None:
        if what not in self._warned:
            self._warned.add(what)
            logger.warning(message)

    def _bound(self, name: str) -> bool:
        """Whether lists can be advertised; before `bind` that is a bug worth a warning
        (logged once), not a crash: handlers called directly (unit tests) still answer."""
        if self._inner is not None:
            return True
        if not self._detached and not self._warned_unbound:
            self._warned_unbound = True
            logger.warning(
                "CommandAdvertiser.%s() called before bind(conn): commands are not advertised; bind the "
                "advertiser to the agent's connection first (in on_connect, or at the top of initialize)",
                name,
            )
        return False

    def _settle_request(self, request: _Request, keep: str | None) -> None:
        for linked in request.linked:
            session = self._sessions.get(linked)
            if linked == keep or session is None or session.request is not request:
                continue
            if session.restore is None:
                del self._sessions[linked]  # never opened: its lists go with it
                continue
            # A failed load/resume of an open session: it stays open.
            session.state, session.sent, session.restore, session.request = _OPEN, session.restore, None, None
            self._queue(linked, session)

    def _queue(self, session_id: str, session: _Session) -> None:
        if self._advertised(session) != session.sent:
            self._dirty[session_id] = None
            if not self._busy:
                self._kick()

    def _set_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._thread = threading.get_ident()

    def _field_allowed(self, is_load: bool) -> bool:
        return not is_load and (self._version >= 2 or not self.v1_followup)

    def _is_load(self, response: Any, session: _Session | None) -> bool:
        """Whether ``response`` is (or may be) a load result, which never carries the field."""
        if response is None:
            return True  # only load_session may return None
        # The setup in flight that names the session (SDK 0.4-0.6 run handlers outside the
        # context), else the request whose handler runs.
        request = session.request if session is not None else None
        current = _CURRENT_REQUEST.get()
        if request is None and current is not None and current[0] is self:
            request = self._requests.get(current[1])
        if request is not None:
            return request.kind == _LOAD
        if isinstance(response, dict):
            # Unknown request: load and resume results name no session; new and fork ones do.
            return not isinstance(response.get("sessionId"), str)
        return any(cls.__name__ == "LoadSessionResponse" for cls in type(response).__mro__)

    def _advertised(self, session: _Session) -> list[dict[str, Any]]:
        """The session's list on the wire: its own list, then its always commands."""
        key = session._key
        version = self._version
        if (
            key is not None
            and key[0] is session.own
            and key[1] is session.always
            and key[2] is session.advertised
            and key[3] == version
        ):
            return session._wire
        wire = _merged(session.own or (), (*session.always, *session.advertised), version)
        session._key, session._wire = (session.own, session.always, session.advertised, version), wire
        return wire

    def _set(self, session_id: str, own: Any = _KEEP, always: tuple[Command, ...] | None = None) -> bool:
        """Record a session's lists; True if it is open and now needs a send."""
        session = self._sessions.get(session_id)
        if session is None:
            session = self._unknown(session_id)
            if session is None:
                return False  # closed
        if own is not _KEEP and not _same(own, session.own):
            session.own = own  # (the same commands again keep the old tuple: its render is cached)
        if always is not None:
            session.always = always
        if session.state != _OPEN:
            return False  # held until the setup response is out
        if self._inflight != session_id and self._advertised(session) == session.sent:
            return False  # what the client has; a queued send is skipped
        self._dirty[session_id] = None
        return True

    def _unknown(self, session_id: str) -> _Session | None:
        current = _CURRENT_REQUEST.get(_UNSET)
        if isinstance(current, tuple) and current[0] is self:
            request = self._requests.get(current[1])
            if request is not None and request.kind in _SETUP_KINDS:
                # A setup handler (or a task it started) names a new session.
                session = self._held.pop(session_id, None) or _Session()
                self._closed.pop(session_id, None)
                session.request = request
                self._sessions[session_id] = session
                request.linked.append(session_id)
                return session
        if session_id in self._closed:
            return None  # late publish for a closed session
        # Unknown session (e.g. a thread publishing before the handler attached):
        # hold it in a bounded table until a setup response names it.
        session = self._held.pop(session_id, None) or _Session()
        if self._early and current is _UNSET:
            # Maybe from a request read before bind: held until all of those are answered.
            session.early = True
        self._held[session_id] = session
        if len(self._held) > self._max_held:
            del self._held[next(iter(self._held))]
        return session

    def _publish_now(self, session_id: str, commands: tuple[Command, ...], future: concurrent.futures.Future[None]) -> None:
        if not future.set_running_or_notify_cancel():
            return
        if not self._set(session_id, commands):
            future.set_result(None)
            return
        task = self._loop.create_task(self._flush())  # type: ignore[union-attr]

        def done(task: asyncio.Task[None]) -> None:
            if task.cancelled():
                future.cancel()
            elif task.exception() is not None:
                future.set_exception(task.exception())  # type: ignore[arg-type]
            else:
                future.set_result(None)

        task.add_done_callback(done)

    def _drop(self, session_id: str, remember: bool) -> None:
        self._sessions.pop(session_id, None)
        self._held.pop(session_id, None)
        self._dirty.pop(session_id, None)
        if remember and self._max_closed:
            self._closed.pop(session_id, None)
            self._closed[session_id] = None
            if len(self._closed) > self._max_closed:
                del self._closed[next(iter(self._closed))]

    async def _flush(self) -> None:
        """Return once every queued list, this caller's included, is handed off."""
        if self._busy:
            # The running drain picks the new list up before it goes idle.
            await asyncio.shield(self._idle_future())
            return
        self._busy = True
        try:
            await self._drain()
        finally:
            self._end_busy()

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
        send = self._send_notification
        while self._dirty:
            session_id = next(iter(self._dirty))
            del self._dirty[session_id]
            session = self._sessions.get(session_id)
            if session is None or session.state != _OPEN:
                continue
            wire = self._advertised(session)
            if wire == session.sent:
                continue
            params = {
                "sessionId": session_id,
                "update": {"sessionUpdate": "available_commands_update", "availableCommands": _fresh(wire)},
            }
            self._inflight = session_id
            try:
                await send("session/update", params)
            except (ConnectionError, RuntimeError) as exc:
                # Not recorded as sent: the same list published again is sent again.
                logger.debug("available_commands_update not sent: %s", exc)
                self._dirty.clear()
                return
            finally:
                self._inflight = None
            if self._sessions.get(session_id) is session:
                if session.state == _OPEN:
                    session.sent = wire
                elif session.restore is not None:  # a reload began meanwhile
                    session.restore = wire


def _initialize_or_prompt(result: Any) -> bool:
    return isinstance(result, dict) and not {"protocolVersion", "stopReason"}.isdisjoint(result)


def _inner_connection(conn: Any) -> Any:
    """The JSON-RPC connection under ``conn`` that sends and is observed."""

    def has(obj: Any, names: tuple[str, ...]) -> bool:
        return any(callable(getattr(obj, name, None)) for name in names)

    def raw(obj: Any) -> bool:
        return callable(getattr(obj, "send_notification", None)) and (
            callable(getattr(obj, "add_observer", None)) or isinstance(getattr(obj, "_observers", None), list)
        )

    agent_side = has(conn, _AGENT_SIDE)
    name = type(conn).__name__
    if not agent_side and has(conn, _CLIENT_SIDE):
        raise TypeError(
            f"cannot bind {name}: it is the client side of a connection. Bind the agent side: the "
            "AgentSideConnection the SDK passes to Agent.on_connect (or to the agent factory)"
        )
    if raw(conn):
        return conn
    inner = getattr(conn, "_conn", None)
    if agent_side and raw(inner):
        return inner
    if agent_side and inner is None:
        raise TypeError(
            f"cannot bind {name} yet: it has no connection (SDK 0.4-0.6 call the agent factory before "
            "creating it). Bind at the top of initialize instead"
        )
    raise TypeError(
        f"cannot bind {name}: expected an ACP AgentSideConnection (SDK 0.4-0.12 or a fork built the same "
        "way) or its acp.connection.Connection (send_notification plus add_observer or an _observers list)"
    )


def _same(new: tuple[Command, ...], old: tuple[Command, ...] | None) -> bool:
    """The same Command objects, in the same order (cheaper than comparing their fields)."""
    return old is not None and len(new) == len(old) and all(a is b for a, b in zip(new, old, strict=True))


def _merged(own: tuple[Command, ...], always: tuple[Command, ...], version: int) -> list[dict[str, Any]]:
    """``own`` then ``always``, de-duplicated by name (first occurrence wins)."""
    seen: set[str] = set()
    wire = []
    for command in (*own, *always):
        if command.name not in seen:
            seen.add(command.name)
            wire.append(command.wire_ref(version))
    return wire


def _fresh(wire: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # The cached wire dicts must not reach an in-memory peer that could mutate
    # them; two levels (command, input) cover everything but _meta values.
    return [{**c, "input": {**c["input"]}} if "input" in c else {**c} for c in wire]


def _session_id_of(response: Any) -> str:
    if isinstance(response, dict):
        session_id = response.get("sessionId", response.get("session_id"))
    else:
        session_id = getattr(response, "session_id", None)
        if session_id is None:
            session_id = getattr(response, "sessionId", None)  # SDK 0.4-0.6 models
    if not isinstance(session_id, str):
        raise TypeError(f"{type(response).__name__} names no session: pass session_id= to attach()")
    return session_id


def _without_null(response: Any) -> Any:
    """``response`` without a ``null`` (or empty, or non-list) ``availableCommands``."""
    if isinstance(response, dict):
        if "availableCommands" in response and not _non_empty_list(response["availableCommands"]):
            return {k: v for k, v in response.items() if k != "availableCommands"}
        return response
    value = getattr(response, "available_commands", _KEEP)
    if value is not _KEEP and not _non_empty_list(value):
        return _with_commands(response, [])  # a subclass that leaves the field out
    return response


def _non_empty_list(value: Any) -> bool:
    return isinstance(value, list) and len(value) > 0


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
    if base in _OWN_TYPES:
        return base
    cls = _RESPONSE_TYPES.get(base)
    if cls is not None:
        return cls
    from pydantic import Field, model_serializer

    def _omit_empty(self: Any, handler: Any) -> Any:
        data = handler(self)
        if isinstance(data, dict):
            # Never null, never an empty list in a setup result, and always the
            # wire name (SDK 0.4 dumps results without by_alias).
            for key in ("available_commands", "availableCommands"):
                if key in data:
                    value = data.pop(key)
                    if value:
                        data["availableCommands"] = value
        return data

    # Overrides the field when a newer SDK (or a fork) already has one, so the
    # serializer above decides what goes out.
    namespace = {
        "__module__": __name__,
        "__doc__": f"{base.__name__} with the ``availableCommands`` setup field.",
        "__annotations__": {"available_commands": list[dict[str, Any]]},
        "available_commands": Field(default_factory=list, alias="availableCommands"),
        "_omit_empty_commands": model_serializer(mode="wrap")(_omit_empty),
    }
    cls = type(base.__name__, (base,), namespace)
    _RESPONSE_TYPES[base] = cls
    _OWN_TYPES.add(cls)
    return cls
