"""Drive an ACP agent over stdio with raw JSON-RPC lines and record every frame.

For agents on another SDK release than the test session's: the agent runs with
that release's interpreter (``support.sdk_venv.sdk_python``), and the test talks
to it in plain JSON-RPC, so nothing of either SDK's models filters the wire::

    async with RawAgent([python, "agent.py"], cwd=workdir, env=sdk_env()) as agent:
        init = await agent.request("initialize", {"protocolVersion": 1})
        new = await agent.request("session/new", {"cwd": str(workdir), "mcpServers": []})
        agent.frames   # [(direction, message), ...] in the order the client saw them

Directions are those of ``support.acp_stdio`` (``TO_AGENT``, ``FROM_AGENT``), so
its pure helpers (``response_to``, ``session_updates``, ``command_updates``) read
these frames too. This module imports nothing but the standard library.

Run as a script with an SDK 0.6.x interpreter, it serves an agent script with two
extra routes::

    python tests/support/acp_raw.py serve-with-unstable-routes path/to/agent.py

The agent script runs as ``__main__``, as ``python path/to/agent.py`` would run it,
but SDK 0.6.x's ``AgentSideConnection`` is replaced by a subclass that also routes
``session/resume`` and ``session/fork`` to the agent's ``resumeSession`` and
``forkSession`` (0.6.x routes neither), through the SDK's own request path, so
their responses are written and observed like any other.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Self

__all__ = ["FROM_AGENT", "TO_AGENT", "AgentError", "Frame", "RawAgent"]

TO_AGENT = "client->agent"  # as support.acp_stdio
FROM_AGENT = "agent->client"
Frame = tuple[str, dict[str, Any]]

SERVE_WITH_UNSTABLE_ROUTES = "serve-with-unstable-routes"
UNSTABLE_ROUTES = {"session/resume": "resumeSession", "session/fork": "forkSession"}


class AgentError(RuntimeError):
    """The agent did not answer in time, or its output ended first."""


class RawAgent:
    """An agent process spoken to in raw JSON-RPC (one JSON object per line).

    Requests from the agent to the client are answered with a JSON-RPC
    "method not found" error (and recorded). ``timeout`` only guards against a
    hang: every wait ends as soon as what it waits for has arrived.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: str | os.PathLike[str],
        env: Mapping[str, str],
        timeout: float = 120.0,
    ) -> None:
        self.argv = [str(arg) for arg in argv]
        self.cwd = str(cwd)
        self.env = dict(env)
        self.timeout = timeout
        self.frames: list[Frame] = []
        self.process: asyncio.subprocess.Process | None = None
        self._next_id = 0
        self._changed = asyncio.Event()
        self._stdout_done = False
        self._stderr = bytearray()
        self._tasks: list[asyncio.Task[None]] = []

    async def __aenter__(self) -> Self:
        self.process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=self.cwd,
            env=self.env,
            limit=16 * 1024 * 1024,
        )
        self._tasks = [asyncio.create_task(self._read_stdout()), asyncio.create_task(self._read_stderr())]
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        process = self.process
        assert process is not None
        if process.returncode is None:
            with contextlib.suppress(ConnectionError):
                process.stdin.close()
            with contextlib.suppress(ProcessLookupError):
                process.terminate()  # agents on SDK 0.6 serve until they are stopped
        try:
            await asyncio.wait_for(process.wait(), self.timeout)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*self._tasks, return_exceptions=True), self.timeout)

    @property
    def stderr(self) -> str:
        """Everything the agent wrote to stderr so far."""
        return self._stderr.decode(errors="replace")

    # -- messages ----------------------------------------------------------

    async def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send a request and return the agent's raw response message (result or error)."""
        request_id = self._next_id
        self._next_id += 1
        await self._write({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params or {}})
        return await self.wait_for(lambda frames: _response(frames, request_id), f"a response to {method}")

    async def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        await self._write({"jsonrpc": "2.0", "method": method, "params": params or {}})

    async def wait_for(self, predicate: Callable[[list[Frame]], Any], what: str = "a frame") -> Any:
        """Wait until ``predicate(frames)`` is truthy and return its value."""

        async def poll() -> Any:
            while True:
                changed = self._changed
                if value := predicate(self.frames):
                    return value
                if self._stdout_done:
                    raise AgentError(f"the agent's output ended before {what}\n{self._report()}")
                await changed.wait()

        try:
            return await asyncio.wait_for(poll(), self.timeout)
        except TimeoutError:
            raise AgentError(f"no {what} within {self.timeout}s\n{self._report()}") from None

    # -- internals -----------------------------------------------------------

    async def _write(self, message: dict[str, Any]) -> None:
        assert self.process is not None and self.process.stdin is not None, "use 'async with'"
        self._record(TO_AGENT, message)
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        await self.process.stdin.drain()

    def _record(self, direction: str, message: dict[str, Any]) -> None:
        self.frames.append((direction, message))
        self._changed.set()
        self._changed = asyncio.Event()

    async def _read_stdout(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        try:
            while line := await self.process.stdout.readline():
                if not line.strip():
                    continue
                message = json.loads(line)
                self._record(FROM_AGENT, message)
                if "method" in message and "id" in message:  # the agent asks the client
                    error = {"code": -32601, "message": "Method not found", "data": {"method": message["method"]}}
                    with contextlib.suppress(ConnectionError):
                        await self._write({"jsonrpc": "2.0", "id": message["id"], "error": error})
        finally:
            self._stdout_done = True
            self._changed.set()

    async def _read_stderr(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        while chunk := await self.process.stderr.read(65536):
            self._stderr += chunk

    def _report(self) -> str:
        returncode = self.process.returncode if self.process is not None else None
        frames = "\n".join(f"{d} {json.dumps(m)}" for d, m in self.frames)
        return f"returncode={returncode}\n--- frames ---\n{frames}\n--- agent stderr ---\n{self.stderr}"


def _response(frames: list[Frame], request_id: int) -> dict[str, Any] | None:
    for direction, message in frames:
        if direction == FROM_AGENT and "method" not in message and message.get("id") == request_id:
            return message
    return None


# -- the serving side: runs under the agent's SDK 0.6.x interpreter --------------


def serve_with_unstable_routes(agent_script: Path) -> None:
    """Run ``agent_script`` as ``__main__`` with resume and fork routed (SDK 0.6.x)."""
    import runpy
    import typing

    import acp
    from acp.agent.connection import AgentSideConnection

    class RoutingConnection(AgentSideConnection):
        """SDK 0.6.x's agent connection, also routing ``session/resume`` and ``session/fork``."""

        def _create_handler(self, agent: Any) -> Any:
            sdk_handler = super()._create_handler(agent)

            async def handler(method: str, params: Any, is_notification: bool) -> Any:
                name = UNSTABLE_ROUTES.get(method)
                if name is None or is_notification or not callable(getattr(agent, name, None)):
                    return await sdk_handler(method, params, is_notification)
                handle = getattr(agent, name)
                request_type = typing.get_type_hints(handle)["params"]  # the agent's own request model
                return await handle(request_type.model_validate(params))

            return handler

    acp.AgentSideConnection = RoutingConnection  # what ``from acp import AgentSideConnection`` gets
    sys.path[0] = str(agent_script.parent)  # as ``python agent_script`` sets it
    sys.argv = [str(agent_script)]
    runpy.run_path(str(agent_script), run_name="__main__")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != SERVE_WITH_UNSTABLE_ROUTES:
        sys.exit(f"usage: {sys.argv[0]} {SERVE_WITH_UNSTABLE_ROUTES} AGENT_SCRIPT")
    serve_with_unstable_routes(Path(sys.argv[2]).resolve())
