"""The positional parameters of the SDK's connection methods, release by release (read
off `AgentSideConnection`, `ClientSideConnection` and the `Client`/`Agent` protocols of
each `agent-client-protocol` release from 0.7.0, when they took keyword arguments).

A positional call means what the signature of the release the code was written for
says; on another release the same arguments may land in other parameters (0.8.0 and
0.11.0 reordered them, 0.10.0 inserted `additional_directories`). No parameter was
renamed. The table is the releases' own `inspect.signature`, 0.7.0 to 1.0.0rc3
(tests/test_sdk_signatures.py compares them). Data, and what is read off it: cheap
to import (a rule module imports it at its top).
"""

from __future__ import annotations

from itertools import pairwise
from typing import TypeVar

Stage = TypeVar("Stage")

# method -> ((first release, positional parameters after `self`), ...), oldest first;
# a method absent from a release on (`set_session_model` from 0.11.0) ends with `None`.
SIGNATURES: dict[str, tuple[tuple[str, tuple[str, ...] | None], ...]] = {
    "request_permission": (
        ("0.7.0", ("options", "session_id", "tool_call")),
        ("0.11.0", ("session_id", "tool_call", "options")),
    ),
    "read_text_file": (
        ("0.7.0", ("path", "session_id", "limit", "line")),
        ("0.11.0", ("session_id", "path", "line", "limit")),
    ),
    "write_text_file": (
        ("0.7.0", ("content", "path", "session_id")),
        ("0.11.0", ("session_id", "path", "content")),
    ),
    "create_terminal": (
        ("0.7.0", ("command", "session_id", "args", "cwd", "env", "output_byte_limit")),
        ("0.11.0", ("session_id", "command", "args", "env", "cwd", "output_byte_limit")),
    ),
    "set_session_mode": (
        ("0.7.0", ("mode_id", "session_id")),
        ("0.11.0", ("session_id", "mode_id")),
    ),
    "set_session_model": (
        ("0.7.0", ("model_id", "session_id")),
        ("0.11.0", None),
    ),
    "prompt": (
        ("0.7.0", ("prompt", "session_id")),
        ("0.9.0", ("prompt", "session_id", "message_id")),
        ("0.11.0", ("session_id", "prompt")),
    ),
    "new_session": (
        ("0.7.0", ("cwd", "mcp_servers")),
        ("0.10.0", ("cwd", "additional_directories", "mcp_servers")),
    ),
    "load_session": (
        ("0.7.0", ("cwd", "mcp_servers", "session_id")),
        ("0.8.0", ("cwd", "session_id", "mcp_servers")),
        ("0.10.0", ("cwd", "session_id", "additional_directories", "mcp_servers")),
        ("0.11.0", ("cwd", "session_id", "mcp_servers", "additional_directories")),
    ),
    "resume_session": (
        ("0.7.1", ("cwd", "session_id", "mcp_servers")),
        ("0.10.0", ("cwd", "session_id", "additional_directories", "mcp_servers")),
        ("0.11.0", ("session_id", "cwd", "additional_directories", "mcp_servers")),
    ),
    "fork_session": (
        ("0.7.1", ("cwd", "session_id", "mcp_servers")),
        ("0.10.0", ("cwd", "session_id", "additional_directories", "mcp_servers")),
        ("0.11.0", ("session_id", "cwd", "additional_directories", "mcp_servers")),
    ),
    "list_sessions": (
        ("0.7.0", ("cursor", "cwd")),
        ("0.10.0", ("additional_directories", "cursor", "cwd")),
        ("0.11.0", ("cwd", "cursor")),
    ),
}


def _reordering_releases() -> tuple[str, ...]:
    """The releases from which some method's positional arguments land in other
    parameters than on the release before: its parameters there do not begin with the
    earlier ones (appending one, as 0.9.0 did `prompt`'s `message_id`, moves nothing)."""
    found = {
        first
        for stages in SIGNATURES.values()
        for (_, before), (first, after) in pairwise(stages)
        if before is not None and after is not None and after[: len(before)] != before
    }
    return tuple(sorted(found, key=lambda version: tuple(map(int, version.split(".")))))


REORDERING_RELEASES = _reordering_releases()

# The connection methods SDK 0.6 spelled in camelCase, taking one request model, and
# their keyword names from 0.7.0 (the agent's connection, then the client's).
CAMEL_METHODS: dict[str, str] = {
    "sessionUpdate": "session_update",
    "requestPermission": "request_permission",
    "readTextFile": "read_text_file",
    "writeTextFile": "write_text_file",
    "createTerminal": "create_terminal",
    "terminalOutput": "terminal_output",
    "releaseTerminal": "release_terminal",
    "waitForTerminalExit": "wait_for_terminal_exit",
    "killTerminal": "kill_terminal",
    "newSession": "new_session",
    "loadSession": "load_session",
    "setSessionMode": "set_session_mode",
    "setSessionModel": "set_session_model",
}
# The parameters of those SIGNATURES does not hold, the same on every release from 0.7.0.
UNCHANGED: dict[str, tuple[str, ...]] = {
    "session_update": ("session_id", "update"),
    "terminal_output": ("session_id", "terminal_id"),
    "release_terminal": ("session_id", "terminal_id"),
    "wait_for_terminal_exit": ("session_id", "terminal_id"),
    "kill_terminal": ("session_id", "terminal_id"),
    "initialize": ("protocol_version", "client_capabilities", "client_info"),
    "authenticate": ("method_id",),
    "cancel": ("session_id",),
}
# The parameters of the client's handlers that default to None, on every release from 0.7.0.
DEFAULTS_NONE: dict[str, frozenset[str]] = {
    "read_text_file": frozenset({"line", "limit"}),
    "create_terminal": frozenset({"args", "env", "cwd", "output_byte_limit"}),
}


def parameters(method: str, version: str) -> tuple[str, ...] | None:
    """The positional parameters of `method` on release `version`; None: it has no such
    method (before 0.7.0, or after its removal)."""
    if method in UNCHANGED:
        return UNCHANGED[method]
    return staged(SIGNATURES[method], version)


def staged(stages: tuple[tuple[str, Stage], ...], version: str) -> Stage | None:
    """What holds on release `version` of `stages` ((first release, value), oldest first);
    None before the first."""
    from acp_migrate.sdk import at_least

    found = None
    for first, value in stages:
        if at_least(version, first):
            found = value
    return found
