"""Runtime shim for ACP servers: per-session slash commands, correct on the wire.

Import-light on purpose (pydantic only; the ACP SDK is imported lazily where
SDK types are needed, never libcst or typer)::

    from acp_migrate.runtime import Command, CommandAdvertiser, TextInput

See ``CommandAdvertiser`` for the wiring and the promises it keeps, and
``docs/runtime.md`` for a complete agent. ``vendored.py`` is the compact
``CommandAdvertiser`` that ``acp-migrate fix`` copies into migrated projects (the
standard library and ``acp`` only; not imported here).
"""

from .advertiser import CommandAdvertiser
from .models import (
    Command,
    CommandInput,
    CustomInput,
    TextInput,
    coerce_commands,
    commands_in_message,
    commands_to_wire,
    parse_commands,
)

__all__ = [
    "Command",
    "CommandAdvertiser",
    "CommandInput",
    "CustomInput",
    "TextInput",
    "coerce_commands",
    "commands_in_message",
    "commands_to_wire",
    "parse_commands",
]
