"""The request handlers of agents and clients before and after SDK 0.7.0 (read off the
`Agent` and `Client` protocols of 0.6.3 and of each release from 0.7.0 on).

Until 0.6.3 the SDK called `newSession(params)` with one request model (camelCase
fields: `params.sessionId`); from 0.7.0 it calls `new_session(cwd=..., mcp_servers=...,
**the rest)` with one keyword argument per field, the unknown ones and `_meta`'s keys
landing in `**kwargs`. Data only: imports only the data of `sdk_signatures` (a rule module
imports it at its top).
"""

from __future__ import annotations

import re

from acp_migrate.rules.shared.sdk_signatures import CAMEL_METHODS, DEFAULTS_NONE

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
# The client's handlers: the agent's connection calls them (`requestPermission` ->
# `request_permission`); their parameters are those of its methods (sdk_signatures).
CLIENT_HANDLERS = {old: new for old, new in CAMEL_METHODS.items() if old not in HANDLERS}
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
    """The parameters of `handler` (0.7.0 name, the agent's or the client's) on release
    `version`; None: it has none."""
    from acp_migrate.rules.shared.sdk_signatures import parameters, staged

    if handler in SIGNATURES:
        return staged(SIGNATURES[handler], version)
    names = parameters(handler, version)
    defaulted = DEFAULTS_NONE.get(handler, frozenset())
    return None if names is None else ", ".join(f"{n}=None" if n in defaulted else n for n in names)


def snake(name: str) -> str:
    """`sessionId` -> `session_id`: a field's name from 0.7.0 on."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()
