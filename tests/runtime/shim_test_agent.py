"""Agent used by the runtime tests, in-process or as a stdio subprocess.

Each setup request picks its behaviour through ``_meta`` (the SDK hands
``_meta`` entries to handlers as keyword arguments), so one agent process can
serve every scenario:

* ``mode="shim"`` (default): uses CommandAdvertiser; awaits before returning.
  ``early``/``late``: lists published before/after ``attach`` (both before the
  response); ``commands``: the attached list; ``fail``: raise after all that;
  ``thread``: a plain thread publishes this list before the handler returns.
* ``mode="naive_await"``: ``await conn.session_update(...)`` inside the handler.
* ``mode="naive_task"``: ``create_task(conn.session_update(...))`` then an await.

Extension methods (``conn.ext_method(name, params)``) drive the advertiser:
``publish``, ``publish_each``, ``publish_seq``, ``threads``, ``forget``, ``stats``.

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
    AvailableCommandsUpdate,
    CloseSessionResponse,
    ForkSessionResponse,
    InitializeResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PromptResponse,
    ResumeSessionResponse,
)

from acp_migrate.runtime import CommandAdvertiser

DEFAULT_COMMANDS = [
    {"name": "web", "description": "Search the web", "input": {"type": "text", "hint": "query"}},
    {"name": "test", "description": "Run the tests"},
]


class ShimTestAgent:
    def __init__(self, **advertiser_kwargs: Any) -> None:
        self.commands = CommandAdvertiser(**advertiser_kwargs)
        self.conn: Any = None
        self._next = 0

    def on_connect(self, conn: Any) -> None:
        self.conn = conn
        self.commands.bind(conn)

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
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
        if mode == "naive_await":
            await self.conn.session_update(sid, _sdk_update(commands))
            return response
        if mode == "naive_task":
            asyncio.get_running_loop().create_task(self.conn.session_update(sid, _sdk_update(commands)))
            await asyncio.sleep(0)
            return response
        if "early" in kw:
            await self.commands.publish(sid, kw["early"])
        if "thread" in kw:
            await asyncio.wrap_future(_publish_from_thread(self.commands, sid, kw["thread"]))
        # Handlers that await before returning are the case that breaks naive code.
        await asyncio.sleep(0)
        await asyncio.sleep(0.0005)
        if "commands" in kw or "thread" not in kw:
            response = self.commands.attach(response, sid, commands)
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
        elif method == "forget":
            self.commands.forget(sid)
        elif method == "stats":
            return {**self.commands.stats(), "version": self.commands.protocol_version}
        else:
            raise RequestError.method_not_found(method)
        return {}


def _sdk_update(commands: list[dict[str, Any]]) -> AvailableCommandsUpdate:
    return AvailableCommandsUpdate(session_update="available_commands_update", available_commands=commands)


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
        future.result(timeout=10)
    return order


if __name__ == "__main__":
    asyncio.run(run_agent(ShimTestAgent(), use_unstable_protocol=True))
