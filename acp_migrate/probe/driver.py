"""Start an agent over stdio and drive it as a client, recording every frame.

Why a plain JSON-RPC client and not the official SDK's `ClientSideConnection`: the
SDK is an optional extra of acp-migrate (`.[acp]`), its models validate and filter
what they read (a `null` list or a malformed item is exactly what must be seen,
not rejected), and importing it costs more than the whole probe. So this module
reads and writes newline-delimited JSON-RPC on the subprocess's pipes itself, with
the standard library only: every line the agent writes is a `Frame`, stamped with
the monotonic clock in the order it was read, valid JSON or not.

The driver knows no rule: it sends `initialize`, `authenticate` (`--authenticate`),
`session/new`, an optional prompt (so that what follows acts on a session with a
transcript), then the setups the agent advertises (`--all`: all of them), each kind
`--repeat` times, one after the other or together (`--burst`), and the closes; it
waits `settle` seconds after each answer for late updates, and answers the agent's
own requests as a cautious client does (permission refused, no file system, no
terminal). It never hangs and stays bounded: each request has a timeout, the whole
run another, the frames and bytes read have caps, lines are read in linear time,
and the agent's whole process tree is ended when it ends (`processes.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from acp_migrate.probe.limits import MAX_BYTES, MAX_FRAMES
from acp_migrate.probe.processes import descendants, kill, pipe_holders, pipe_inodes
from acp_migrate.probe.wire import FROM_AGENT, TO_AGENT, Frame, advertised, error_text
from acp_migrate.version import __version__

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
    prompt_timeout: float | None = None  # None: half of what is left of `timeout`, then session/cancel
    authenticate: str | None = None  # an auth method id initialize advertises
    repeat: int = 1  # setups of each kind
    burst: bool = False  # each kind's setups sent together, without waiting for an answer
    max_frames: int = MAX_FRAMES
    max_bytes: int = MAX_BYTES
    list_wait: float = 10.0  # the bound on the wait for lists still owed, once the setups are done
    on_list_wait: Callable[[], None] | None = None  # called as that wait starts (tests release agents with it)


@dataclass
class ProbeRun:
    frames: list[Frame]
    command: list[str]
    error: str | None = None  # why the agent could not be driven (exit 2)
    stderr_tail: str = ""
    returncode: int | None = None
    notes: list[str] = field(default_factory=list)  # steps skipped, and why; a cap reached

    @property
    def driven(self) -> bool:
        return self.error is None


class NotDriven(Exception):
    """The agent did not answer, answered initialize or session/new with an error, or exited."""


class AgentConnection:
    def __init__(self, process: asyncio.subprocess.Process, started: float, options: ProbeOptions) -> None:
        self.process = process
        self.started = started
        self.max_frames = options.max_frames
        self.max_bytes = options.max_bytes
        self.pipes = pipe_inodes(process.pid)  # read now, while the agent holds them
        self.frames: list[Frame] = []
        self.stderr = deque[bytes]()
        self._stderr_size = 0
        self._pending: dict[int, asyncio.Future[Frame]] = {}
        self._next_id = 0
        self.overflow: str | None = None  # the cap the agent's output reached, if it did
        self.stdout_closed = asyncio.Event()  # no frame will be read any more
        self.between_lines = asyncio.Event()  # no frame half-read
        self.between_lines.set()
        self.frame_read = asyncio.Event()  # set at each frame the agent writes
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
        # Chunks, not readline: a frame may be longer than any StreamReader limit. Each
        # chunk is searched once and a line joined once: linear in what the agent writes.
        line: list[bytes] = []
        read = 0
        stream = self.process.stdout
        try:
            while chunk := await stream.read(CHUNK):
                if self.overflow is not None:
                    continue  # drained to the end, not recorded: the agent is being ended
                read += len(chunk)
                if read > self.max_bytes:
                    self._stop(f"the agent wrote more than {self.max_bytes} bytes on stdout (--max-bytes)")
                    continue
                start = 0
                while self.overflow is None and (end := chunk.find(b"\n", start)) >= 0:
                    line.append(chunk[start:end])
                    start = end + 1
                    self._line(b"".join(line))
                    line = []
                if self.overflow is not None:
                    continue  # a cap mid-chunk: the rest is not a frame half-read, nobody waits for it
                if start < len(chunk):
                    line.append(chunk[start:])
                if any(line):
                    self.between_lines.clear()
                else:
                    self.between_lines.set()
            if self.overflow is None:
                self._line(b"".join(line))
        finally:
            self._stop(None)

    def _stop(self, overflow: str | None) -> None:
        """No more frames: the agent closed its stdout, or reached a cap (`overflow`)."""
        if overflow is not None and self.overflow is None:
            self.overflow = overflow
        self.stdout_closed.set()
        self.between_lines.set()
        reason = self.overflow or "the agent closed its stdout"
        for future in self._pending.values():
            if not future.done():
                future.set_exception(NotDriven(reason))

    def _line(self, line: bytes) -> None:
        if not line.strip():
            return
        if len(self.frames) >= self.max_frames:
            self._stop(f"the run reached {self.max_frames} frames (--max-frames)")
            return
        self._received(self._record(FROM_AGENT, line))
        self.frame_read.set()

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
            asyncio.get_running_loop().create_task(self._send([{"jsonrpc": "2.0", "id": frame.message["id"], **reply}]))

    async def _send(self, messages: list[dict[str, Any]]) -> None:
        """Write the messages in one write: an agent reads a burst as one chunk."""
        raws = [json.dumps(message, separators=(",", ":")).encode() for message in messages]
        for raw in raws:  # recorded before they are written: nothing the agent answers comes first
            self._record(TO_AGENT, raw)
        try:
            self.process.stdin.write(b"".join(raw + b"\n" for raw in raws))
            await self.process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            pass

    # -- requests -----------------------------------------------------------------

    async def request(self, method: str, params: dict[str, Any], timeout: float) -> Frame:
        [answer] = await self.requests(method, [params], timeout)
        return answer

    async def requests(self, method: str, each: list[dict[str, Any]], timeout: float) -> list[Frame]:
        """Send one request per params, all at once, and wait for every answer."""
        futures = await self.start(method, each)
        try:
            return list(await asyncio.wait_for(asyncio.gather(*futures), timeout))
        except TimeoutError:
            raise NotDriven(f"no answer to {method} within {timeout:g} s") from None
        except NotDriven as exc:
            raise NotDriven(f"{exc} before answering {method}") from None

    async def start(self, method: str, each: list[dict[str, Any]]) -> list[asyncio.Future[Frame]]:
        """Send one request per params, in one write; the futures of their answers."""
        if self.stdout_closed.is_set():
            raise NotDriven(self.overflow or f"the agent closed its stdout before {method}")
        loop = asyncio.get_running_loop()
        ids = list(range(self._next_id, self._next_id + len(each)))
        self._next_id += len(each)
        futures = []
        for request_id in ids:
            futures.append(loop.create_future())
            self._pending[request_id] = futures[-1]
        await self._send(
            [{"jsonrpc": "2.0", "id": i, "method": method, "params": params} for i, params in zip(ids, each)]
        )
        return futures

    async def notify(self, method: str, params: dict[str, Any]) -> None:
        await self._send([{"jsonrpc": "2.0", "method": method, "params": params}])

    async def settle(self, seconds: float, limit: float) -> None:
        """Wait `seconds` for late frames, then for the end of a frame being read (up to
        `limit`): the next request must not overtake a frame the agent wrote before it."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stdout_closed.wait(), seconds)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.between_lines.wait(), limit)

    async def wait_for_owed_lists(self, bound: float) -> list[str]:
        """Read on until every answered setup has its command list, the agent closes its
        stdout, or `bound` seconds pass: a list the run could still read is never called
        missing. The setups still owed one at the end (their methods)."""
        from acp_migrate.probe.wire import Transcript

        deadline = time.monotonic() + bound
        owed = Transcript(list(self.frames)).owed()
        read = len(self.frames)
        while True:
            self.frame_read.clear()
            # Read the transcript again only when a list came: a flood of other frames stays linear.
            if any("availableCommands" in frame.raw for frame in self.frames[read:]):
                owed = Transcript(list(self.frames)).owed()
            read = len(self.frames)
            left = deadline - time.monotonic()
            if not owed or left <= 0 or self.stdout_closed.is_set():
                return [step.method for step in owed]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.frame_read.wait(), left)

    def end_tree(self) -> bool:
        """SIGKILL the agent and every process of its tree; True when the agent was still running."""
        running = self.process.returncode is None
        tree = descendants(self.process.pid)  # before a kill breaks the chain of parents
        kill_group(self.process)
        for pid in tree | pipe_holders(self.pipes):
            kill(pid)
        return running

    async def finish(self, grace: float) -> bool:
        """Close stdin, give the agent `grace` seconds to exit, then end its tree;
        True when the probe had to kill the agent itself."""
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.process.wait(), grace)
        killed = self.end_tree()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.process.wait(), EXIT_GRACE)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*self._tasks, return_exceptions=True), EXIT_GRACE)
        for task in self._tasks:
            task.cancel()
        return killed


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
SETUP_ORDER = ("session/load", "session/resume", "session/fork")


def auth_methods(result: dict[str, Any]) -> list[dict[str, Any]]:
    methods = result.get("authMethods")
    methods = methods if isinstance(methods, list) else []
    return [m for m in methods if isinstance(m, dict) and isinstance(m.get("id"), str)]


def auth_method_ids(result: dict[str, Any]) -> list[str]:
    return [m["id"] for m in auth_methods(result)]


# Words of a method a probe can use unattended: a key in the environment, not a browser login.
UNATTENDED = ("api key", "api-key", "apikey", "api_key", "env", "key", "token")


def auth_hint(result: dict[str, Any]) -> str:
    """What to try when session/new failed and initialize advertises auth methods: the
    methods an unattended run can use (a key in the environment: `type: env_var`, or a
    name that says key or token) first; an interactive login (a browser, a terminal)
    never answers a probe, so it is named as such, not suggested."""
    methods = auth_methods(result)
    if not methods:
        return ""

    def unattended(method: dict[str, Any]) -> bool:
        if method.get("type") in ("env_var", "terminal"):
            return method.get("type") == "env_var"
        words = " ".join(str(method.get(k, "")) for k in ("id", "name", "description")).lower()
        return any(word in words for word in UNATTENDED)

    usable = [m["id"] for m in methods if unattended(m)]
    interactive = [m["id"] for m in methods if not unattended(m)]
    if usable:
        hint = f"try --authenticate {usable[0]} with its key in --env"
        if interactive:
            hint += f"; {', '.join(interactive)} log{'s' if len(interactive) == 1 else ''} in interactively"
    else:
        hint = f"its auth methods ({', '.join(interactive)}) log in interactively: log in once outside the probe"
    return f" (initialize advertises auth methods: {hint})"


async def _setups(agent: AgentConnection, options: ProbeOptions, method: str, params: dict[str, Any]) -> list[Frame]:
    """`--repeat` setups of one kind: sent together with `--burst`, else one by one."""
    timeout = options.request_timeout
    if options.burst:
        answers = await agent.requests(method, [params] * options.repeat, timeout)
        await agent.settle(options.settle, timeout)
        return answers
    answers = []
    for _ in range(options.repeat):
        answers.append(await agent.request(method, params, timeout))
        await agent.settle(options.settle, timeout)
    return answers


def _session_id(answer: Frame) -> str | None:
    session_id = answer.result.get("sessionId") if isinstance(answer.result, dict) else None
    return session_id if isinstance(session_id, str) else None


async def _prompt(
    agent: AgentConnection, options: ProbeOptions, run: ProbeRun, session_id: str, started: float
) -> None:
    """One turn. One that does not end in time (no model configured, a turn that waits on
    the network) is cancelled with `session/cancel`, and the setups still run after it."""
    left = options.timeout - (time.monotonic() - started)
    budget = options.prompt_timeout if options.prompt_timeout is not None else max(left / 2, 0.1)
    prompt = [{"type": "text", "text": options.prompt}]
    [answer] = await agent.start("session/prompt", [{"sessionId": session_id, "prompt": prompt}])
    try:
        await asyncio.wait_for(asyncio.shield(answer), budget)
    except TimeoutError:
        await agent.notify("session/cancel", {"sessionId": session_id})
        try:
            await asyncio.wait_for(asyncio.shield(answer), options.request_timeout)
            ended = "it ended the turn"
        except TimeoutError:
            ended = f"no answer within {options.request_timeout:g} s more either"
        run.notes.append(f"session/prompt: no answer within {budget:g} s: the probe sent session/cancel ({ended})")
    except NotDriven as exc:
        raise NotDriven(f"{exc} before answering session/prompt") from None
    await agent.settle(options.settle, options.request_timeout)


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
    agent = AgentConnection(process, started, options)
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
        raise NotDriven(f"initialize failed: {error_text(init.message)}")
    await agent.settle(options.settle, timeout)

    auth_ids = auth_method_ids(result)
    if options.authenticate is not None:
        if options.authenticate not in auth_ids:
            offered_ids = ", ".join(auth_ids) or "none"
            raise NotDriven(
                f"--authenticate {options.authenticate}: initialize advertises no such auth method "
                f"(it advertises: {offered_ids})"
            )
        try:
            answer = await agent.request("authenticate", {"methodId": options.authenticate}, timeout)
        except NotDriven as exc:
            raise NotDriven(f"{exc} (a method that logs in through a browser never answers a probe)") from None
        if "error" in (answer.message or {}):
            raise NotDriven(f"authenticate {options.authenticate} failed: {error_text(answer.message)}")
        await agent.settle(options.settle, timeout)

    offered = advertised(result)

    news = await _setups(agent, options, "session/new", {"cwd": cwd, "mcpServers": []})
    sessions = [session_id for session_id in map(_session_id, news) if session_id is not None]
    if not sessions:
        if "result" in (news[0].message or {}):  # answered, without a session (ACP113): judged, not "not driven"
            run.notes.append("session/new answered without a session id: nothing more could be driven")
            return
        hint = auth_hint(result) if options.authenticate is None else ""
        raise NotDriven(f"session/new failed: {error_text(news[0].message)}{hint}")
    session_id = sessions[0]

    if options.prompt is not None:  # before the setups: load and fork then act on a transcript
        await _prompt(agent, options, run, session_id, started)

    setup_params = {"sessionId": session_id, "cwd": cwd, "mcpServers": []}
    for method in SETUP_ORDER:
        if not (offered[method] or options.try_all):
            run.notes.append(f"{method} skipped: not advertised (--all tries it)")
            continue
        answers = await _setups(agent, options, method, setup_params)
        if method == "session/fork":
            sessions.extend(forked for forked in map(_session_id, answers) if forked is not None)

    if options.on_list_wait is not None:
        options.on_list_wait()
    still_owed = await agent.wait_for_owed_lists(options.list_wait)
    if still_owed:
        run.notes.append(
            f"{len(still_owed)} setup{'' if len(still_owed) == 1 else 's'} ({', '.join(dict.fromkeys(still_owed))}) "
            f"got no command list within --list-wait {options.list_wait:g} s after the last setup"
        )

    if offered["session/close"] or options.try_all:
        for closing in reversed(sessions):
            await agent.request("session/close", {"sessionId": closing}, timeout)
        await agent.settle(options.settle, timeout)
    else:
        run.notes.append("session/close skipped: not advertised (--all tries it)")

    if agent.stdout_closed.is_set():
        raise NotDriven(agent.overflow or "the agent closed its stdout during the run")


async def probe_async(options: ProbeOptions, interrupted: asyncio.Event | None = None) -> ProbeRun:
    """Drive the agent; `interrupted` set (by a signal) ends the run as a failure would."""
    run = ProbeRun(frames=[], command=list(options.command))
    box: list[AgentConnection] = []
    drive = asyncio.ensure_future(_drive(options, run, box))
    stop = asyncio.ensure_future((interrupted or asyncio.Event()).wait())
    completed = False
    try:
        done, _ = await asyncio.wait({drive, stop}, timeout=options.timeout, return_when=asyncio.FIRST_COMPLETED)
        if drive in done:
            drive.result()
            completed = True
        elif stop in done:
            run.error = "interrupted"
        else:
            run.error = f"the run did not finish within --timeout {options.timeout:g} s: the agent was killed"
    except NotDriven as exc:
        run.error = str(exc)
    finally:
        for task in (drive, stop):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError, NotDriven):
            await drive
        if box:
            agent = box[0]
            closed = agent.stdout_closed.is_set() and agent.overflow is None
            # An agent that closed its stdout gets a moment to exit with its own code; on a
            # timeout, a cap or a signal the probe ends it at once.
            grace = EXIT_GRACE if completed or (closed and run.error != "interrupted") else 0.0
            killed = await agent.finish(grace)
            run.returncode = agent.process.returncode
            run.stderr_tail = agent.stderr_tail()
            if agent.overflow is not None:
                run.notes.append(f"cap reached: {agent.overflow}; the probe stopped reading and ended the agent")
            if run.error is not None and closed and "exit code" not in run.error:
                run.error += f" ({_ending(run.returncode, killed)})"
    return run


def _ending(returncode: int | None, killed: bool) -> str:
    if killed:
        return "it did not exit: the probe killed it"
    if returncode is not None and returncode < 0:
        return f"the agent was killed by signal {-returncode}"
    return f"the agent exited, exit code {returncode}"


def probe(options: ProbeOptions) -> ProbeRun:
    """`probe_async` in an event loop of its own. Ctrl-C or SIGTERM during the run ends
    the agent first, then reaches the handler that was in place (no traceback)."""
    received: list[int] = []

    async def main() -> ProbeRun:
        loop = asyncio.get_running_loop()
        interrupted = asyncio.Event()
        previous: dict[int, Any] = {}

        def stop(number: int) -> None:
            received.append(number)
            interrupted.set()

        for number in (signal.SIGINT, signal.SIGTERM):
            handler = signal.getsignal(number)
            if handler is signal.SIG_IGN:  # ignored by whoever runs us: still ignored
                continue
            try:
                loop.add_signal_handler(number, stop, number)
            except (ValueError, RuntimeError, NotImplementedError):  # not the main thread
                continue
            previous[number] = handler
        try:
            return await probe_async(options, interrupted)
        finally:
            for number, handler in previous.items():
                loop.remove_signal_handler(number)
                signal.signal(number, handler)  # asyncio would leave the default, not ours

    run = asyncio.run(main())
    if received:  # the agent is gone: now the signal does what it would have done
        handler = signal.getsignal(received[0])
        if callable(handler):
            handler(received[0], None)
        elif handler == signal.SIG_DFL:
            signal.raise_signal(received[0])
        raise KeyboardInterrupt
    return run
