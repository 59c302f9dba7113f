"""Start an agent over stdio and drive it as a client, recording every frame.

Why a plain JSON-RPC client and not the official SDK's `ClientSideConnection`: the
SDK is an optional extra of acp-migrate (`.[acp]`), its models validate and filter
what they read (a `null` list or a malformed item is exactly what must be seen,
not rejected), and importing it costs more than the whole probe. So this module
reads and writes newline-delimited JSON-RPC on the subprocess's pipes itself, with
the standard library only: every line the agent writes is a `Frame`, stamped with
the monotonic clock in the order it was read, valid JSON or not.

The driver knows no rule: it sends `initialize`, `session/new`, then the setups the
agent advertises (`--all`: all of them), an optional prompt and the closes, waits
`settle` seconds after each answer for late updates, and answers the agent's own
requests as a cautious client does (permission refused, no file system, no
terminal). It never hangs: each request has a timeout, the whole run another, and
the agent's process group is killed when it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from acp_migrate import __version__
from acp_migrate.probe.wire import FROM_AGENT, TO_AGENT, Frame

STDERR_TAIL_BYTES = 8192
STDERR_TAIL_LINES = 20
CHUNK = 1 << 16
EXIT_GRACE = 2.0  # seconds an agent gets to exit once its stdin is closed


@dataclass
class ProbeOptions:
    command: list[str]
    cwd: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    try_all: bool = False  # try every session kind, advertised or not
    prompt: str | None = None
    settle: float = 1.0
    timeout: float = 60.0
    initialize_timeout: float = 30.0
    request_timeout: float = 15.0
    protocol_version: int = 1


@dataclass
class ProbeRun:
    frames: list[Frame]
    command: list[str]
    error: str | None = None  # why the agent could not be driven (exit 2)
    stderr_tail: str = ""
    returncode: int | None = None
    notes: list[str] = field(default_factory=list)  # steps skipped, and why

    @property
    def driven(self) -> bool:
        return self.error is None


class NotDriven(Exception):
    """The agent did not answer, answered initialize or session/new with an error, or exited."""


class AgentConnection:
    def __init__(self, process: asyncio.subprocess.Process, started: float) -> None:
        self.process = process
        self.started = started
        self.frames: list[Frame] = []
        self.stderr = deque[bytes]()
        self._stderr_size = 0
        self._pending: dict[int, asyncio.Future[Frame]] = {}
        self._next_id = 0
        self.stdout_closed = asyncio.Event()
        self.between_lines = asyncio.Event()  # no frame half-read
        self.between_lines.set()
        self._tasks = [
            asyncio.create_task(self._read_stdout()),
            asyncio.create_task(self._read_stderr()),
        ]

    # -- recording -----------------------------------------------------------------

    def _record(self, direction: str, raw: bytes) -> Frame:
        text = raw.decode("utf-8", "replace").rstrip("\r")
        frame = Frame.parse(len(self.frames), direction, time.monotonic() - self.started, text)
        self.frames.append(frame)
        return frame

    async def _read_stdout(self) -> None:
        # Chunks, not readline: a frame may be longer than any StreamReader limit.
        buffer = b""
        stream = self.process.stdout
        try:
            while chunk := await stream.read(CHUNK):
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    if line.strip():
                        self._received(self._record(FROM_AGENT, line))
                if buffer:
                    self.between_lines.clear()
                else:
                    self.between_lines.set()
            if buffer.strip():
                self._received(self._record(FROM_AGENT, buffer))
        finally:
            self.stdout_closed.set()
            self.between_lines.set()
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(NotDriven("the agent closed its stdout"))

    async def _read_stderr(self) -> None:
        while chunk := await self.process.stderr.read(CHUNK):
            self.stderr.append(chunk)
            self._stderr_size += len(chunk)
            while self._stderr_size > STDERR_TAIL_BYTES and len(self.stderr) > 1:
                self._stderr_size -= len(self.stderr.popleft())

    def stderr_tail(self) -> str:
        text = b"".join(self.stderr)[-STDERR_TAIL_BYTES:].decode("utf-8", "replace")
        return "\n".join(text.splitlines()[-STDERR_TAIL_LINES:])

    def _received(self, frame: Frame) -> None:
        if frame.is_response:
            future = self._pending.pop(_int_id(frame.message["id"]), None)
            if future is not None and not future.done():
                future.set_result(frame)
        elif frame.is_request:
            reply = client_reply(frame.method, frame.params)
            asyncio.get_running_loop().create_task(self._send({"jsonrpc": "2.0", "id": frame.message["id"], **reply}))

    async def _send(self, message: dict[str, Any]) -> Frame | None:
        raw = json.dumps(message, separators=(",", ":")).encode()
        # Recorded before it is written, so that nothing the agent answers comes before it.
        frame = self._record(TO_AGENT, raw)
        try:
            self.process.stdin.write(raw + b"\n")
            await self.process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            return None
        return frame

    # -- requests -----------------------------------------------------------------

    async def request(self, method: str, params: dict[str, Any], timeout: float) -> Frame:
        if self.stdout_closed.is_set():
            raise NotDriven(f"the agent closed its stdout before {method}")
        request_id = self._next_id
        self._next_id += 1
        future = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        await self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise NotDriven(f"no answer to {method} within {timeout:g} s") from None
        except NotDriven as exc:
            raise NotDriven(f"{exc} before answering {method}") from None
        finally:
            self._pending.pop(request_id, None)

    async def settle(self, seconds: float, limit: float) -> None:
        """Wait `seconds` for late frames, then for the end of a frame being read (up to
        `limit`): the next request must not overtake a frame the agent wrote before it."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stdout_closed.wait(), seconds)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.between_lines.wait(), limit)

    async def finish(self) -> int | None:
        """Close stdin, give the agent a moment to exit, then end its process group."""
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.process.wait(), EXIT_GRACE)
        kill_group(self.process)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.process.wait(), EXIT_GRACE)
            await asyncio.wait_for(asyncio.gather(*self._tasks, return_exceptions=True), EXIT_GRACE)
        for task in self._tasks:
            task.cancel()
        return self.process.returncode


def kill_group(process: asyncio.subprocess.Process) -> None:
    """SIGKILL the agent's process group (it leads its own session): its children too."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    # The agent itself, should it have left its group. Not `process.kill()`: it reaps the
    # process behind asyncio's child watcher, which then reports exit code 255.
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(process.pid, signal.SIGKILL)


def _int_id(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def client_reply(method: str, params: dict[str, Any]) -> dict[str, Any]:
    """What a cautious client answers the agent's requests: refuse permissions (so a
    turn ends without side effects), no file system or terminal (the initialize
    request says so), and "method not found" for anything else."""
    if method == "session/request_permission":
        options = params.get("options") if isinstance(params.get("options"), list) else []
        for option in options:
            if isinstance(option, dict) and option.get("kind") in ("reject_once", "reject_always"):
                return {"result": {"outcome": {"outcome": "selected", "optionId": option.get("optionId")}}}
        return {"result": {"outcome": {"outcome": "cancelled"}}}
    if method.startswith(("fs/", "terminal/")):
        return {
            "error": {
                "code": -32601,
                "message": f"{method}: this client (acp-migrate probe) offers no {method.split('/')[0]}",
            }
        }
    return {"error": {"code": -32601, "message": f"method not found: {method}"}}


CLIENT_CAPABILITIES = {"fs": {"readTextFile": False, "writeTextFile": False}, "terminal": False}


async def _drive(options: ProbeOptions, run: ProbeRun, connection_box: list[AgentConnection]) -> None:
    cwd = os.path.abspath(options.cwd or os.getcwd())
    env = {**os.environ, **options.env}
    started = time.monotonic()
    try:
        process = await asyncio.create_subprocess_exec(
            *options.command,
            cwd=cwd,
            env=env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,  # its own process group: killed whole at the end
        )
    except OSError as exc:
        raise NotDriven(f"could not start {options.command[0]!r}: {exc.strerror or exc}") from None
    agent = AgentConnection(process, started)
    connection_box.append(agent)
    run.frames = agent.frames
    timeout = options.request_timeout

    init = await agent.request(
        "initialize",
        {
            "protocolVersion": options.protocol_version,
            "clientCapabilities": CLIENT_CAPABILITIES,
            "clientInfo": {"name": "acp-migrate-probe", "version": __version__},
        },
        options.initialize_timeout,
    )
    result = init.result if isinstance(init.result, dict) else None
    if result is None:
        raise NotDriven(f"initialize failed: {_error_text(init)}")
    await agent.settle(options.settle, timeout)

    capabilities = result.get("agentCapabilities") if isinstance(result.get("agentCapabilities"), dict) else {}
    session_capabilities = capabilities.get("sessionCapabilities")
    session_capabilities = session_capabilities if isinstance(session_capabilities, dict) else {}
    offered = {
        "session/load": capabilities.get("loadSession") is True,
        "session/resume": session_capabilities.get("resume") is not None,
        "session/fork": session_capabilities.get("fork") is not None,
        "session/close": session_capabilities.get("close") is not None,
    }

    new = await agent.request("session/new", {"cwd": cwd, "mcpServers": []}, timeout)
    new_result = new.result if isinstance(new.result, dict) else None
    session_id = new_result.get("sessionId") if new_result else None
    if not isinstance(session_id, str):
        raise NotDriven(f"session/new failed: {_error_text(new)}")
    await agent.settle(options.settle, timeout)
    sessions = [session_id]

    setup_params = {"sessionId": session_id, "cwd": cwd, "mcpServers": []}
    for method in ("session/load", "session/resume", "session/fork"):
        if not (offered[method] or options.try_all):
            run.notes.append(f"{method} skipped: not advertised (--all tries it)")
            continue
        answer = await agent.request(method, setup_params, timeout)
        forked = answer.result.get("sessionId") if isinstance(answer.result, dict) else None
        if method == "session/fork" and isinstance(forked, str):
            sessions.append(forked)
        await agent.settle(options.settle, timeout)

    if options.prompt is not None:
        remaining = options.timeout - (time.monotonic() - started)
        prompt = [{"type": "text", "text": options.prompt}]
        await agent.request("session/prompt", {"sessionId": session_id, "prompt": prompt}, max(remaining, 0.1))
        await agent.settle(options.settle, timeout)

    if offered["session/close"] or options.try_all:
        for closing in reversed(sessions):
            await agent.request("session/close", {"sessionId": closing}, timeout)
        await agent.settle(options.settle, timeout)
    else:
        run.notes.append("session/close skipped: not advertised (--all tries it)")

    if agent.stdout_closed.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), EXIT_GRACE)
        raise NotDriven(f"the agent exited during the run (exit code {process.returncode})")


def _error_text(frame: Frame) -> str:
    error = (frame.message or {}).get("error")
    if isinstance(error, dict):
        return f"error {error.get('code')}: {error.get('message')}"
    return f"unexpected answer {frame.raw[:200]!r}"


async def probe_async(options: ProbeOptions) -> ProbeRun:
    run = ProbeRun(frames=[], command=list(options.command))
    box: list[AgentConnection] = []
    completed = False
    try:
        await asyncio.wait_for(_drive(options, run, box), options.timeout)
        completed = True
    except TimeoutError:
        run.error = f"the run did not finish within --timeout {options.timeout:g} s: the agent was killed"
    except NotDriven as exc:
        run.error = str(exc)
    finally:
        if box:
            agent = box[0]
            gone_by_itself = agent.stdout_closed.is_set()  # before the probe killed it
            if not completed:  # an error, or Ctrl-C / SIGTERM: the agent gets no grace
                kill_group(agent.process)
            run.returncode = await agent.finish()
            run.stderr_tail = agent.stderr_tail()
            exited = gone_by_itself and agent.process.returncode is not None
            if run.error is not None and exited and "exit code" not in run.error:
                run.error += f" (the agent exited, exit code {agent.process.returncode})"
    return run


def probe(options: ProbeOptions) -> ProbeRun:
    return asyncio.run(probe_async(options))
