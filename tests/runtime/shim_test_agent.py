"""Agent used by the runtime tests, in-process or as a stdio subprocess.

Each setup request picks its behaviour through ``_meta`` (the SDK hands
``_meta`` entries to handlers as keyword arguments), so one agent process can
serve every scenario:

* ``mode="shim"`` (default): uses CommandAdvertiser; awaits before returning.
  ``early``/``late``: lists published before/after ``attach`` (both before the
  response); ``commands``: the attached list; ``fail``: raise after all that;
  ``thread``: a plain thread publishes this list before the handler returns;
  ``gate``: wait for ``agent.gate`` (in-process tests) before attaching;
  ``attach=False``: no attach; ``null_field``: the response is a dict carrying ``"availableCommands": null``.
* ``mode="naive_await"``: another object (``command_source.CommandSource``) does
  ``await conn.session_update(...)`` inside the handler.
* ``mode="naive_task"``: the same from a task it creates, then the handler awaits.
* ``mode="naive_after"``: the same from a task that waits for ``agent.release``.
  In both, ``always`` makes the handler return ``attach(response, always=...)``.

``ShimTestAgent(bind=...)`` binds the advertiser in ``on_connect`` (default), at
the top of ``initialize``, or not at all (``"none"``, the negative controls);
as a script: ``--bind=initialize`` or ``--bind=none``.

Extension methods (``conn.ext_method(name, params)``) drive the advertiser:
``publish``, ``publish_each``, ``publish_seq``, ``threads``, ``source_send``, ``forget``, ``stats``.

Run as ``python tests/runtime/shim_test_agent.py`` to serve ACP on stdio.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # make the repo importable when run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from acp import RequestError, run_agent
from acp.schema import (
    CloseSessionResponse,
    ForkSessionResponse,
    InitializeResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PromptResponse,
    ResumeSessionResponse,
)
from command_source import CommandSource

from acp_migrate.runtime import CommandAdvertiser

DEFAULT_COMMANDS = [
    {"name": "web", "description": "Search the web", "input": {"type": "text", "hint": "query"}},
    {"name": "test", "description": "Run the tests"},
]


class ShimTestAgent:
    def __init__(self, *, bind: str = "on_connect", **advertiser_kwargs: Any) -> None:
        assert bind in ("on_connect", "initialize", "none"), bind
        self.bind = bind
        self.commands = CommandAdvertiser(**advertiser_kwargs)
        self.conn: Any = None
        self.source: CommandSource | None = None
        self._next = 0
        self.gate = asyncio.Event()  # opened by in-process tests
        self.gated = 0  # handlers waiting at the gate
        self.gate_target = 0
        self.all_gated = asyncio.Event()  # set once gate_target handlers wait
        self.connected = asyncio.Event()  # on_connect ran
        self.release = asyncio.Event()  # naive_after tasks send once it is set

    def on_connect(self, conn: Any) -> None:
        self.conn = conn
        self.source = CommandSource(conn)
        if self.bind == "on_connect":
            self.commands.bind(conn)
        self.connected.set()

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        if self.bind == "initialize":
            self.commands.bind(self.conn)  # late: this request went by unobserved
        # Speaks v1 and v2: echo what the client asks for, capped at 2.
        return InitializeResponse(protocol_version=min(protocol_version, 2))

    def _new_id(self) -> str:
        self._next += 1
        return f"sess-{self._next}"

    async def new_session(self, cwd: str, **kw: Any) -> Any:
        sid = self._new_id()
        return await self._setup(sid, NewSessionResponse(session_id=sid), kw)

    async def load_session(self, cwd: str, session_id: str, **kw: Any) -> Any:
        return await self._setup(session_id, LoadSessionResponse(), kw)

    async def resume_session(self, cwd: str, session_id: str, **kw: Any) -> Any:
        return await self._setup(session_id, ResumeSessionResponse(), kw)

    async def fork_session(self, cwd: str, session_id: str, **kw: Any) -> Any:
        sid = self._new_id()
        return await self._setup(sid, ForkSessionResponse(session_id=sid), kw)

    async def close_session(self, session_id: str, **kw: Any) -> CloseSessionResponse:
        await asyncio.sleep(0)
        if kw.get("fail"):
            raise RequestError.invalid_params({"details": "close refused on purpose"})
        return CloseSessionResponse()

    async def prompt(self, prompt: list[Any], session_id: str, **kw: Any) -> PromptResponse:
        return PromptResponse(stop_reason="end_turn")

    async def _setup(self, sid: str, response: Any, kw: dict[str, Any]) -> Any:
        mode = kw.get("mode", "shim")
        commands = kw.get("commands", DEFAULT_COMMANDS)
        if mode in ("naive_await", "naive_task", "naive_after"):
            assert self.source is not None
            if mode == "naive_await":
                await self.source.send(sid, commands)
            elif mode == "naive_task":
                self.source.send_soon(sid, commands)
                await asyncio.sleep(0)
            else:
                self.source.send_soon(sid, commands, after=self.release)
            if "always" in kw:
                response = self.commands.attach(response, sid, always=kw["always"])
            return response
        if kw.get("null_field"):
            response = {**response.model_dump(by_alias=True, exclude_none=True), "availableCommands": None}
        if kw.get("gate"):
            self.gated += 1
            if self.gated == self.gate_target:
                self.all_gated.set()
            await self.gate.wait()
        if "early" in kw:
            await self.commands.publish(sid, kw["early"])
        if "thread" in kw:
            await asyncio.wrap_future(_publish_from_thread(self.commands, sid, kw["thread"]))
        # Handlers that await before returning are the case that breaks naive code.
        await asyncio.sleep(0)
        await asyncio.sleep(0.0005)
        if kw.get("attach", True) and ("commands" in kw or "thread" not in kw):
            response = self.commands.attach(response, sid, commands, always=kw.get("always"))
        if "late" in kw:
            await self.commands.publish(sid, kw["late"])
        await asyncio.sleep(0)
        if kw.get("fail"):
            raise RequestError.internal_error({"details": "setup failed on purpose"})
        return response

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        sid = params.get("sessionId", "")
        if method == "publish":
            await self.commands.publish(sid, params.get("commands"))
        elif method == "publish_each":
            for each in params["sessionIds"]:
                await self.commands.publish(each, params.get("commands"))
        elif method == "publish_seq":
            for commands in params["lists"]:
                await self.commands.publish(sid, commands)
        elif method == "threads":
            return {"order": await asyncio.to_thread(_thread_storm, self.commands, sid, params)}
        elif method == "source_send":  # another object sends a list on an open session
            assert self.source is not None
            await self.source.send(sid, params["commands"])
        elif method == "forget":
            self.commands.forget(sid)
        elif method == "stats":
            return {**self.commands.stats(), "version": self.commands.protocol_version}
        else:
            raise RequestError.method_not_found(method)
        return {}


def _publish_from_thread(adv: CommandAdvertiser, sid: str, commands: Any) -> Any:
    # A plain thread: no contextvars from the handler, so the advertiser sees
    # a publish for a session it has never heard of.
    box: list[Any] = []
    thread = threading.Thread(target=lambda: box.append(adv.publish_threadsafe(sid, commands)))
    thread.start()
    thread.join()
    return box[0]


def _thread_storm(adv: CommandAdvertiser, sid: str, params: dict[str, Any]) -> list[int]:
    """``threads`` threads each publish ``per_thread`` of ``lists``; returns the call order."""
    lists = params["lists"]
    order: list[int] = []
    lock = threading.Lock()
    futures: list[Any] = []
    start = threading.Barrier(params["threads"])

    def worker(offset: int) -> None:
        start.wait()
        for i in range(params["per_thread"]):
            index = (offset + i) % len(lists)
            with lock:  # records the order calls reach the loop
                order.append(index)
                futures.append(adv.publish_threadsafe(sid, lists[index]))

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(params["threads"])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for future in futures:
        future.result(timeout=60)
    return order


if __name__ == "__main__":
    bind = next((arg.split("=", 1)[1] for arg in sys.argv[1:] if arg.startswith("--bind=")), "on_connect")
    asyncio.run(run_agent(ShimTestAgent(bind=bind), use_unstable_protocol=True))
