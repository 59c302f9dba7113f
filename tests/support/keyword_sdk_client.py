"""Drive an agent script with the client of an SDK release from 0.7 on (keyword methods).

    python tests/support/keyword_sdk_client.py SPEC_JSON

Runs on that release's interpreter (``support.sdk_venv``), spawning the agent on the same
interpreter: ``SPEC_JSON`` holds ``argv`` (the agent's arguments to Python: a script and
its own arguments), ``cwd`` (the session's), ``text``
(one prompt; None: none), ``prompt_session`` (optional: the session the prompt names
instead of the one ``session/new`` answered, one the agent does not know), ``await_update`` (optional: a kind of session update
the client waits for after ``session/new``, such as ``available_commands_update``) and ``timeout`` (a hang guard only). The client initializes, sets up a
session, sends the prompt, answers the agent's requests (permission: cancelled; a file
read: ``read_content``; a write: done) and prints one JSON object: ``frames`` (the raw
wire, ``[direction, message]`` in order), ``session_id`` (what ``session/new`` answered:
None for a `null` result) and ``failure`` (None, or what went wrong).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

from acp import PROTOCOL_VERSION, spawn_agent_process  # this release's SDK
from acp.connection import StreamDirection, StreamEvent
from acp.schema import (
    DeniedOutcome,
    ReadTextFileResponse,
    RequestPermissionResponse,
    TextContentBlock,
    WriteTextFileResponse,
)

TO_AGENT, FROM_AGENT = "client->agent", "agent->client"
READ_CONTENT = "read by the client"


class _Client:
    """Keyword handlers, which every release from 0.7 calls alike."""

    async def session_update(self, **kwargs: Any) -> None:
        return None

    async def request_permission(self, **kwargs: Any) -> RequestPermissionResponse:
        return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))

    async def read_text_file(self, **kwargs: Any) -> ReadTextFileResponse:
        return ReadTextFileResponse(content=READ_CONTENT)

    async def write_text_file(self, **kwargs: Any) -> WriteTextFileResponse:
        return WriteTextFileResponse()


async def _drive(spec: dict[str, Any], frames: list[list[Any]], result: dict[str, Any]) -> None:
    changed = asyncio.Event()

    def observe(event: StreamEvent) -> None:
        frames.append([TO_AGENT if event.direction is StreamDirection.OUTGOING else FROM_AGENT, event.message])
        changed.set()

    async def update_arrives(kind: str) -> None:
        """Until the agent sends the session an update of `kind` (frames, never time)."""
        while not any(
            direction == FROM_AGENT
            and message.get("method") == "session/update"
            and message["params"].get("sessionId") == result["session_id"]
            and message["params"]["update"].get("sessionUpdate") == kind
            for direction, message in frames
        ):
            changed.clear()
            await changed.wait()

    timeout = spec["timeout"]
    async with spawn_agent_process(
        lambda agent: _Client(),
        sys.executable,
        *spec["argv"],
        cwd=spec["cwd"],
        env={"PYTHONPATH": os.environ.get("PYTHONPATH", ""), "PYTHONDONTWRITEBYTECODE": "1"},
        observers=[observe],
        transport_kwargs={"stderr": None, "shutdown_timeout": timeout},
    ) as (conn, process):

        async def answered(awaitable: Any, what: str) -> Any:
            """Its result; fails at once when the agent exits first, else after the hang guard."""
            waiting, exited = asyncio.ensure_future(awaitable), asyncio.ensure_future(process.wait())
            done, _ = await asyncio.wait({waiting, exited}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            exited.cancel()
            if waiting in done:
                return waiting.result()
            waiting.cancel()
            raise AssertionError(f"{what}: " + ("the agent exited first" if exited in done else "no answer"))

        try:
            await answered(conn.initialize(protocol_version=PROTOCOL_VERSION), "initialize")
            session = await answered(conn.new_session(cwd=spec["cwd"], mcp_servers=[]), "session/new")
            result["session_id"] = getattr(session, "session_id", None)
            if result["session_id"] is None:
                raise AssertionError(f"session/new answered {session!r}, no session id")
            if spec.get("await_update"):
                await answered(update_arrives(spec["await_update"]), spec["await_update"])
            if spec["text"] is not None:  # None: an agent with no prompt handler
                text = TextContentBlock(type="text", text=spec["text"])
                session_id = spec.get("prompt_session") or result["session_id"]
                await answered(conn.prompt(session_id=session_id, prompt=[text]), "session/prompt")
        finally:
            # The SDK's examples serve until killed (`asyncio.Event().wait()`): done with it.
            if process.returncode is None:
                process.terminate()


def main(argv: list[str]) -> None:
    spec = json.loads(argv[0])
    frames: list[list[Any]] = []
    result: dict[str, Any] = {"session_id": None, "failure": None}
    try:
        asyncio.run(_drive(spec, frames, result))
    except Exception as exc:  # noqa: BLE001  reported to the test, with the frames so far
        result["failure"] = f"{type(exc).__name__}: {exc}"
    json.dump({"frames": frames, **result}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1:])
