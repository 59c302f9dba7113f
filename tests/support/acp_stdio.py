"""Drive an ACP agent script over stdio and record the raw JSON-RPC frames.

The SDK's client models drop unknown fields (e.g. the legacy ``slashCommands``),
so assertions about the wire go through :attr:`AgentProcess.frames`, recorded by
a client-side stream observer in wire order::

    async with AgentProcess("examples/legacy_agent/agent.py") as agent:
        await agent.initialize()
        sid = await agent.new_session()
        await agent.prompt(sid, "/web hello")
        raw_caps = agent.result("initialize")["agentCapabilities"]
        per_session = agent.command_updates()   # {session_id: [[command, ...], ...]}

Frame directions are :data:`TO_AGENT` and :data:`FROM_AGENT`.  The pure
functions (:func:`response_to`, :func:`session_updates`, :func:`command_updates`)
also work on a saved frame list.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from acp import PROTOCOL_VERSION, spawn_agent_process, text_block
from acp.connection import StreamDirection, StreamEvent
from acp.schema import (
    CloseSessionResponse,
    DeniedOutcome,
    InitializeResponse,
    LoadSessionResponse,
    PromptResponse,
    RequestPermissionResponse,
    ResumeSessionResponse,
)

__all__ = [
    "FROM_AGENT",
    "TO_AGENT",
    "AgentProcess",
    "AgentProcessError",
    "Frame",
    "command_updates",
    "response_to",
    "session_updates",
]

TO_AGENT = "client->agent"
FROM_AGENT = "agent->client"
Frame = tuple[str, dict[str, Any]]
SESSION_UPDATE = "session/update"
AVAILABLE_COMMANDS_UPDATE = "available_commands_update"


class AgentProcessError(RuntimeError):
    """The agent did not answer (timeout, crash, closed pipe)."""


def response_to(frames: Sequence[Frame], method: str, index: int = -1) -> dict[str, Any]:
    """Raw response frame to the ``index``-th request of ``method`` sent to the agent."""
    requests = [msg for d, msg in frames if d == TO_AGENT and msg.get("method") == method and "id" in msg]
    if not requests:
        raise LookupError(f"no {method!r} request was sent")
    request_id = requests[index]["id"]
    for direction, msg in frames:
        if direction == FROM_AGENT and "method" not in msg and msg.get("id") == request_id:
            return msg
    raise LookupError(f"no response to {method!r} (id={request_id})")


def session_updates(
    frames: Sequence[Frame], session_id: str | None = None, kind: str | None = None
) -> list[dict[str, Any]]:
    """Raw ``params`` of ``session/update`` notifications, optionally filtered."""
    found = []
    for direction, msg in frames:
        if direction != FROM_AGENT or msg.get("method") != SESSION_UPDATE or "id" in msg:
            continue
        params = msg.get("params") or {}
        if session_id is not None and params.get("sessionId") != session_id:
            continue
        if kind is not None and (params.get("update") or {}).get("sessionUpdate") != kind:
            continue
        found.append(params)
    return found


def command_updates(frames: Sequence[Frame]) -> dict[str, list[list[dict[str, Any]]]]:
    """``availableCommands`` of every ``available_commands_update``, per session, in order."""
    per_session: dict[str, list[list[dict[str, Any]]]] = {}
    for params in session_updates(frames, kind=AVAILABLE_COMMANDS_UPDATE):
        commands = params["update"].get("availableCommands", [])
        per_session.setdefault(params["sessionId"], []).append(commands)
    return per_session


class _Client:
    """Minimal ACP client: accepts updates, declines permission requests."""

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        return None

    async def request_permission(self, session_id: str, tool_call: Any, options: Any, **kwargs: Any) -> Any:
        return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))


class AgentProcess:
    """An ACP agent script running as a subprocess, driven by the SDK client.

    Args:
        script: Path of the agent script, run as ``python script *args``.
        args: Extra command-line arguments for the script.
        python: Interpreter to use (defaults to the running one).
        cwd: Working directory of the agent, also the default session ``cwd``.
        env: Extra environment variables (the SDK passes a trimmed environment).
        timeout: Seconds to wait for any single request: a safety net for an agent
            that never answers (a loaded machine makes a slow one slower).
    """

    def __init__(
        self,
        script: str | os.PathLike[str],
        *args: str,
        python: str = sys.executable,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float = 60.0,
    ) -> None:
        self.script = Path(script).resolve()
        self.args = args
        self.python = python
        self.cwd = str(Path(cwd).resolve()) if cwd is not None else os.getcwd()
        self.env = {"PYTHONDONTWRITEBYTECODE": "1", **(env or {})}  # keep example dirs clean
        self.timeout = timeout
        self.frames: list[Frame] = []
        self._stderr = bytearray()
        self._frame_seen = asyncio.Event()
        self._stack: contextlib.AsyncExitStack | None = None
        self._stderr_task: asyncio.Task[None] | None = None
        self.conn: Any = None  # acp ClientSideConnection
        self.process: asyncio.subprocess.Process | None = None

    # -- lifecycle ---------------------------------------------------------

    async def __aenter__(self) -> AgentProcess:
        self._stack = contextlib.AsyncExitStack()
        try:
            self.conn, self.process = await self._stack.enter_async_context(
                spawn_agent_process(
                    _Client(),
                    self.python,
                    str(self.script),
                    *self.args,
                    env=self.env,
                    cwd=self.cwd,
                    observers=[self._observe],
                    use_unstable_protocol=True,
                    # After its input ends the agent exits by itself: not terminated after 2 s.
                    transport_kwargs={"shutdown_timeout": self.timeout},
                )
            )
        except BaseException:
            await self._stack.aclose()
            raise
        self._stderr_task = asyncio.create_task(self._drain_stderr())
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._stack is not None
        try:
            await self._stack.aclose()  # closes stdin, waits, then terminates
        finally:
            if self._stderr_task is not None:
                with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(self._stderr_task, self.timeout)

    @property
    def stderr(self) -> str:
        """Everything the agent wrote to stderr so far."""
        return self._stderr.decode(errors="replace")

    @property
    def returncode(self) -> int | None:
        return self.process.returncode if self.process is not None else None

    # -- ACP requests --------------------------------------------------------

    async def initialize(self, protocol_version: int = PROTOCOL_VERSION, **kwargs: Any) -> InitializeResponse:
        """``initialize``; the SDK model hides non-spec fields, see ``result("initialize")``."""
        return await self._call(self.conn.initialize(protocol_version=protocol_version, **kwargs))

    async def new_session(self, cwd: str | None = None, **kwargs: Any) -> str:
        """``session/new``; returns the new session id."""
        response = await self._call(self.conn.new_session(cwd=cwd or self.cwd, **kwargs))
        return response.session_id

    async def load_session(self, session_id: str, cwd: str | None = None, **kwargs: Any) -> LoadSessionResponse:
        return await self._call(self.conn.load_session(cwd=cwd or self.cwd, session_id=session_id, **kwargs))

    async def resume_session(self, session_id: str, cwd: str | None = None, **kwargs: Any) -> ResumeSessionResponse:
        return await self._call(self.conn.resume_session(cwd=cwd or self.cwd, session_id=session_id, **kwargs))

    async def fork_session(self, session_id: str, cwd: str | None = None, **kwargs: Any) -> str:
        """``session/fork``; returns the id of the forked session."""
        response = await self._call(self.conn.fork_session(cwd=cwd or self.cwd, session_id=session_id, **kwargs))
        return response.session_id

    async def close_session(self, session_id: str, **kwargs: Any) -> CloseSessionResponse | None:
        return await self._call(self.conn.close_session(session_id=session_id, **kwargs))

    async def prompt(self, session_id: str, text: str, **kwargs: Any) -> PromptResponse:
        """``session/prompt`` with a single text block."""
        return await self._call(self.conn.prompt(session_id=session_id, prompt=[text_block(text)], **kwargs))

    async def cancel(self, session_id: str) -> None:
        """``session/cancel`` notification."""
        await self._call(self.conn.cancel(session_id=session_id))

    # -- raw frames ------------------------------------------------------------

    def result(self, method: str, index: int = -1) -> dict[str, Any]:
        """Raw ``result`` of the ``index``-th ``method`` request (fails on error responses)."""
        frame = response_to(self.frames, method, index)
        if "error" in frame:
            raise AssertionError(f"{method} failed: {frame['error']}")
        return frame.get("result") or {}

    def session_updates(self, session_id: str | None = None, kind: str | None = None) -> list[dict[str, Any]]:
        return session_updates(self.frames, session_id, kind)

    def command_updates(self) -> dict[str, list[list[dict[str, Any]]]]:
        return command_updates(self.frames)

    async def wait_for(self, predicate: Callable[[list[Frame]], Any], timeout: float | None = None) -> Any:
        """Wait until ``predicate(frames)`` is truthy and return its value."""
        async def _poll() -> Any:
            while True:
                seen = self._frame_seen
                if value := predicate(self.frames):
                    return value
                await seen.wait()

        return await self._call(_poll(), timeout)

    async def wait_for_commands(self, session_id: str, timeout: float | None = None) -> list[dict[str, Any]]:
        """Latest ``availableCommands`` advertised to ``session_id``, waiting for the first one."""
        updates = await self.wait_for(lambda frames: command_updates(frames).get(session_id), timeout)
        return updates[-1]

    async def drain(self) -> None:
        """End the agent's input and read all it wrote until it exits (by itself):
        every late notification is in ``frames`` then, without waiting for quiet."""
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write_eof()
        await self._call(self.conn._conn._recv_task)  # the SDK's reader: at stdout's end
        await self._call(self.process.wait())

    # -- internals -------------------------------------------------------------

    def _observe(self, event: StreamEvent) -> None:
        direction = TO_AGENT if event.direction is StreamDirection.OUTGOING else FROM_AGENT
        self.frames.append((direction, event.message))
        self._frame_seen.set()
        self._frame_seen = asyncio.Event()

    async def _drain_stderr(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        while chunk := await self.process.stderr.read(65536):
            self._stderr += chunk

    async def _call(self, awaitable: Any, timeout: float | None = None) -> Any:
        if self.conn is None:
            if asyncio.iscoroutine(awaitable):
                awaitable.close()
            raise AgentProcessError("AgentProcess is not started; use 'async with'")
        timeout = timeout or self.timeout
        try:
            return await asyncio.wait_for(awaitable, timeout)
        except (asyncio.TimeoutError, ConnectionError) as exc:
            reason = f"timed out after {timeout}s" if isinstance(exc, asyncio.TimeoutError) else str(exc)
            if isinstance(exc, ConnectionError) and self.process is not None:
                with contextlib.suppress(asyncio.TimeoutError):  # let the exit status and stderr land
                    await asyncio.wait_for(self.process.wait(), 0.5)
            raise AgentProcessError(
                f"agent {self.script.name}: {reason}; returncode={self.returncode}\n"
                f"--- agent stderr ---\n{self.stderr}"
            ) from exc
