"""An agent of the SDK release it runs on (0.7 on) that records what each request's
handler received: one JSON line per request, `[handler, {parameter: value}]` (values
that are None left out, models as their JSON), appended to `arrived.jsonl` in its
working folder before it answers, so a client that got the answer finds the line.

    python tests/support/recording_agent.py
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import acp  # this release's SDK
from acp.schema import (
    InitializeResponse,
    ListSessionsResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PromptResponse,
    SetSessionModeResponse,
)

ARRIVED = "arrived.jsonl"


def _record(handler: str, arguments: dict[str, Any]) -> None:
    given = {name: value for name, value in arguments.items() if value is not None}
    line = json.dumps([handler, given], default=lambda model: model.model_dump(mode="json", exclude_none=True))
    with open(ARRIVED, "a", encoding="utf-8") as arrived:
        arrived.write(line + "\n")


class RecordingAgent(acp.Agent):
    """Handlers every release from 0.7 calls alike, by keyword."""

    async def initialize(self, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(protocol_version=acp.PROTOCOL_VERSION)

    async def new_session(self, **kwargs: Any) -> NewSessionResponse:
        _record("new_session", kwargs)
        return NewSessionResponse(session_id="new-1")

    async def list_sessions(self, **kwargs: Any) -> ListSessionsResponse:
        _record("list_sessions", kwargs)
        return ListSessionsResponse(sessions=[])

    # In 0.7's order, which 0.8 swapped: the routers call handlers by keyword, so it
    # receives its arguments whole on every release.
    async def load_session(self, cwd: str, mcp_servers: list, session_id: str, **kwargs: Any) -> LoadSessionResponse:
        _record("load_session", {"cwd": cwd, "mcp_servers": mcp_servers, "session_id": session_id, **kwargs})
        return LoadSessionResponse()

    async def set_session_mode(self, **kwargs: Any) -> SetSessionModeResponse:
        _record("set_session_mode", kwargs)
        return SetSessionModeResponse()

    async def prompt(self, **kwargs: Any) -> PromptResponse:
        _record("prompt", kwargs)
        return PromptResponse(stop_reason="end_turn")


if __name__ == "__main__":
    asyncio.run(acp.run_agent(RecordingAgent(), use_unstable_protocol=True))  # session/list is unstable
