"""The agent's request handlers before and after SDK 0.7.0 (read off the `Agent` protocol
of 0.6.3 and of each release from 0.7.0 on).

Until 0.6.3 the SDK called `newSession(params)` with one request model (camelCase
fields: `params.sessionId`); from 0.7.0 it calls `new_session(cwd=..., mcp_servers=...,
**the rest)` with one keyword argument per field, the unknown ones and `_meta`'s keys
landing in `**kwargs`. Data only: imports nothing (a rule module imports it at its top).
"""

from __future__ import annotations

import re

# The 0.6.3 handler -> (its 0.7.0 name, the fields of its request model, camelCase).
HANDLERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "initialize": ("initialize", ("protocolVersion", "clientCapabilities", "clientInfo")),
    "newSession": ("new_session", ("cwd", "mcpServers")),
    "loadSession": ("load_session", ("cwd", "mcpServers", "sessionId")),
    "setSessionMode": ("set_session_mode", ("modeId", "sessionId")),
    "setSessionModel": ("set_session_model", ("modelId", "sessionId")),
    "authenticate": ("authenticate", ("methodId",)),
    "prompt": ("prompt", ("prompt", "sessionId")),
    "cancel": ("cancel", ("sessionId",)),
}
# Renamed only: their `params` is the extension's own dict, then as now.
EXTENSIONS = {"extMethod": "ext_method", "extNotification": "ext_notification"}
# Handlers whose name did not change: old only when their one parameter is a request model.
SAME_NAME = frozenset(old for old, (new, _) in HANDLERS.items() if old == new)

# The 0.7.0+ handler -> ((first release, its parameters after `self`, before `**kwargs`), ...).
SIGNATURES: dict[str, tuple[tuple[str, str | None], ...]] = {
    "initialize": (("0.7.0", "protocol_version, client_capabilities=None, client_info=None"),),
    "new_session": (
        ("0.7.0", "cwd, mcp_servers"),
        ("0.10.0", "cwd, additional_directories=None, mcp_servers=None"),
    ),
    "load_session": (
        ("0.7.0", "cwd, mcp_servers, session_id"),
        ("0.8.0", "cwd, session_id, mcp_servers"),
        ("0.10.0", "cwd, session_id, additional_directories=None, mcp_servers=None"),
        ("0.11.0", "cwd, session_id, mcp_servers=None, additional_directories=None"),
    ),
    "set_session_mode": (("0.7.0", "mode_id, session_id"), ("0.11.0", "session_id, mode_id")),
    "set_session_model": (("0.7.0", "model_id, session_id"), ("0.11.0", None)),
    "authenticate": (("0.7.0", "method_id"),),
    "prompt": (
        ("0.7.0", "prompt, session_id"),
        ("0.9.0", "prompt, session_id, message_id=None"),
        ("0.11.0", "session_id, prompt"),
    ),
    "cancel": (("0.7.0", "session_id"),),
}


def signature(handler: str, version: str) -> str | None:
    """The parameters of `handler` (0.7.0 name) on release `version`; None: it has none."""
    from acp_migrate.rules.shared.sdk_signatures import staged

    return staged(SIGNATURES[handler], version)


def snake(name: str) -> str:
    """`sessionId` -> `session_id`: a field's name from 0.7.0 on."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()
