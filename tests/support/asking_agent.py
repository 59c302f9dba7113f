"""An agent of SDK 0.7+ that asks its client everything a client answers, to see which of
the client's handlers the SDK calls.

    python tests/support/asking_agent.py RECORD_JSON

On each prompt it sends the client one message chunk (`asked`), then calls each of the
client's methods once (permission, the files, the terminals) and writes what came back
to RECORD_JSON before it answers the prompt: per method, ``{"error": code, "data":
...}`` for an error answer, ``{"result": ...}`` for a result, ``{"raised": ...}`` for
anything else.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from acp import Agent, InitializeResponse, NewSessionResponse, PromptResponse, RequestError, run_agent
from acp.schema import AgentMessageChunk, PermissionOption, TextContentBlock, ToolCallUpdate

SESSION = "asked-session"


class AskingAgent(Agent):
    def on_connect(self, conn: Any) -> None:
        self._conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=SESSION)

    async def prompt(self, session_id: str, prompt: list[Any], **kwargs: Any) -> PromptResponse:
        conn = self._conn
        await conn.session_update(
            session_id=session_id, update=AgentMessageChunk(content=TextContentBlock(text="asked"))
        )
        asks = {
            "session/request_permission": lambda: conn.request_permission(
                session_id=session_id,
                tool_call=ToolCallUpdate(tool_call_id="call-1"),
                options=[PermissionOption(option_id="yes", name="Yes", kind="allow_once")],
            ),
            "fs/write_text_file": lambda: conn.write_text_file(session_id=session_id, path="/tmp/x", content="x"),
            "fs/read_text_file": lambda: conn.read_text_file(session_id=session_id, path="/tmp/x"),
            "terminal/create": lambda: conn.create_terminal(session_id=session_id, command="true"),
            "terminal/output": lambda: conn.terminal_output(session_id=session_id, terminal_id="t"),
            "terminal/release": lambda: conn.release_terminal(session_id=session_id, terminal_id="t"),
            "terminal/wait_for_exit": lambda: conn.wait_for_terminal_exit(session_id=session_id, terminal_id="t"),
            "terminal/kill": lambda: conn.kill_terminal(session_id=session_id, terminal_id="t"),
        }
        record = {}
        for method, ask in asks.items():
            try:
                answer = await ask()
            except RequestError as error:
                record[method] = {"error": error.code, "data": error.data}
            except Exception as error:  # noqa: BLE001 - a null answer fails to validate: recorded
                record[method] = {"raised": type(error).__name__}
            else:
                record[method] = {"result": None if answer is None else answer.model_dump(by_alias=True)}
        Path(sys.argv[1]).write_text(json.dumps(record))
        return PromptResponse(stop_reason="end_turn")


if __name__ == "__main__":
    asyncio.run(run_agent(AskingAgent()))
