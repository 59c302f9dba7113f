"""What a client holds after each session setup, read off recorded JSON-RPC frames.

Pure functions over ``(direction, message)`` frames in wire order, shared by
tests/test_golden_runs.py and the old-release client (``support/old_sdk_client.py``,
which runs on another SDK's interpreter): the standard library only.
"""

from __future__ import annotations

from typing import Any

TO_AGENT = "client->agent"  # the directions support.acp_stdio records
FROM_AGENT = "agent->client"
Frame = tuple[str, dict[str, Any]]


def response_at(frames: list[Frame], request_at: int) -> int | None:
    request_id = frames[request_at][1]["id"]
    for index in range(request_at + 1, len(frames)):
        direction, message = frames[index]
        if direction == FROM_AGENT and "method" not in message and message.get("id") == request_id:
            return index
    return None


def updates_for(frames: list[Frame], session_id: str, start: int, end: int | None) -> list[tuple[int, dict]]:
    return [
        (index, message["params"]["update"])
        for index, (direction, message) in enumerate(frames[start:end], start=start)
        if direction == FROM_AGENT
        and message.get("method") == "session/update"
        and message["params"].get("sessionId") == session_id
    ]


def client_list(frames: list[Frame], request_at: int, session_id: str, end: int | None = None) -> list[str] | None:
    """Names of the commands a client holds for `session_id` after the setup request at
    `request_at` (up to frame `end`): its result's `availableCommands`, replaced by each
    later `available_commands_update`. None until the response is there."""
    answered = response_at(frames, request_at)
    if answered is None or (end is not None and answered >= end):
        return None
    commands = (frames[answered][1].get("result") or {}).get("availableCommands", [])
    for _, update in updates_for(frames, session_id, answered, end):
        if update.get("sessionUpdate") == "available_commands_update":
            commands = update["availableCommands"]
    return [command["name"] for command in commands]


def early(frames: list[Frame], request_at: int, session_id: str) -> list[dict]:
    """Updates for the session that came between its setup request and the response."""
    return [update for _, update in updates_for(frames, session_id, request_at, response_at(frames, request_at))]
