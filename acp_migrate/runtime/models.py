"""Slash-command models, their v1/v2 wire shapes, and tolerant parsing.

Only pydantic is imported here: the ACP SDK is not needed to build, convert or
parse command lists.

Input specifications
--------------------
* :class:`TextInput` -- ``{"type": "text", "hint": ...}`` on v2,
  ``{"hint": ...}`` (no ``type``) on v1.
* :class:`CustomInput` -- any other ``type``. Authors may only create types that
  start with ``_`` (custom); other unknown types are reserved for future ACP
  versions and are accepted only by the tolerant parser, so a proxy can forward
  what it received. Every field is kept verbatim and sent unchanged on v2. v1
  has no typed inputs, so a non-text input is left out on v1 and the command is
  advertised without structured input (what the spec asks clients that cannot
  render an input to do).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

__all__ = [
    "Command",
    "CommandInput",
    "CustomInput",
    "TextInput",
    "coerce_commands",
    "commands_in_message",
    "commands_to_wire",
    "parse_commands",
]

# Validation context key set by the tolerant parser.
_TOLERANT = "acp_migrate_tolerant"


def _tolerant(info: ValidationInfo) -> bool:
    return bool(info.context and info.context.get(_TOLERANT))


class TextInput(BaseModel):
    """Free-text argument for a command, shown to the user as ``hint``."""

    model_config = ConfigDict(frozen=True, populate_by_name=True)

    type: Literal["text"] = "text"
    hint: str
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")

    def to_wire(self, protocol_version: int) -> dict[str, Any] | None:
        """Wire shape for the negotiated protocol version."""
        data: dict[str, Any] = {"type": "text", "hint": self.hint} if protocol_version >= 2 else {"hint": self.hint}
        if self.meta is not None:
            data["_meta"] = self.meta
        return data


class CustomInput(BaseModel):
    """A non-text input specification, kept verbatim.

    ``CustomInput(type="_choice", options=["a", "b"])`` is sent on v2 exactly as
    ``{"type": "_choice", "options": ["a", "b"]}``.
    """

    model_config = ConfigDict(frozen=True, extra="allow")

    type: str

    @field_validator("type")
    @classmethod
    def _check_type(cls, value: str, info: ValidationInfo) -> str:
        if value == "text":
            raise ValueError('type "text" is a TextInput')
        if not value.startswith("_") and not _tolerant(info):
            raise ValueError(f"custom input types must start with '_' ({value!r} is reserved)")
        return value

    @property
    def reserved(self) -> bool:
        """True for an unknown non-``_`` type (only produced by the tolerant parser)."""
        return not self.type.startswith("_")

    def to_wire(self, protocol_version: int) -> dict[str, Any] | None:
        if protocol_version < 2:
            return None  # v1 has no typed inputs
        return {"type": self.type, **(self.__pydantic_extra__ or {})}


CommandInput = TextInput | CustomInput


def _input_from(value: Any, info: ValidationInfo) -> CommandInput | None:
    if value is None or isinstance(value, (TextInput, CustomInput)):
        return value
    if isinstance(value, BaseModel):  # SDK AvailableCommandInput / UnstructuredCommandInput
        value = value.model_dump(mode="json", by_alias=True, exclude_none=True)
    if not isinstance(value, Mapping):
        raise ValueError("input must be an object")
    kind = value.get("type")
    # No type is the v1 shape, which only ever meant text.
    if kind is None or kind == "text":
        return TextInput.model_validate(value, context=info.context)
    if not isinstance(kind, str):
        raise ValueError("input type must be a string")
    return CustomInput.model_validate(value, context=info.context)


class Command(BaseModel):
    """One slash command: ``name``, ``description`` and an optional ``input``.

    ``input`` accepts a :class:`TextInput`, a :class:`CustomInput`, a wire dict
    (v1 ``{"hint": ...}`` or v2 ``{"type": ..., ...}``) or an SDK input model.
    Unknown command fields are dropped; ``_meta`` is kept.
    """

    model_config = ConfigDict(frozen=True, populate_by_name=True)

    name: str
    description: str
    input: CommandInput | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")

    @field_validator("input", mode="wrap")
    @classmethod
    def _parse_input(cls, value: Any, handler: Any, info: ValidationInfo) -> CommandInput | None:
        try:
            return _input_from(value, info)
        except ValueError:
            if _tolerant(info):
                return None  # keep the command, drop the unusable input
            raise

    # Cached because publish() compares and sends these on every call.
    @cached_property
    def _wire_v1(self) -> dict[str, Any]:
        return self._build_wire(1)

    @cached_property
    def _wire_v2(self) -> dict[str, Any]:
        return self._build_wire(2)

    def _build_wire(self, protocol_version: int) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "description": self.description}
        if self.input is not None:
            spec = self.input.to_wire(protocol_version)
            if spec is not None:
                data["input"] = spec
        if self.meta is not None:
            data["_meta"] = self.meta
        return data

    def to_wire(self, protocol_version: int) -> dict[str, Any]:
        """JSON-ready dict for the negotiated protocol version (a fresh copy)."""
        return _copy_json(self._wire_v2 if protocol_version >= 2 else self._wire_v1)

    def wire_ref(self, protocol_version: int) -> dict[str, Any]:
        """Like :meth:`to_wire` but the cached dict itself: do not mutate it."""
        return self._wire_v2 if protocol_version >= 2 else self._wire_v1


def _coerce(item: Any) -> Command:
    if isinstance(item, Command):
        return item
    if isinstance(item, Mapping):
        return Command.model_validate(item)
    if isinstance(item, BaseModel):  # e.g. acp.schema.AvailableCommand
        return Command.model_validate(item.model_dump(mode="json", by_alias=True, exclude_none=True))
    raise TypeError(f"not a command: {type(item).__name__}")


def coerce_commands(commands: Iterable[Any] | None) -> tuple[Command, ...]:
    """Strictly convert commands (``Command``, wire dicts, SDK ``AvailableCommand``).

    ``None`` means no commands. Invalid items raise: this is for authors, whose
    mistakes should fail loudly. Use :func:`parse_commands` for received data.
    """
    if commands is None:
        return ()
    if isinstance(commands, (str, bytes, Mapping)):
        raise TypeError("commands must be a list of commands")
    return tuple(_coerce(item) for item in commands)


def commands_to_wire(commands: Iterable[Any] | None, protocol_version: int) -> list[dict[str, Any]]:
    """The ``availableCommands`` array for ``protocol_version`` (never ``None``)."""
    return [command.to_wire(protocol_version) for command in coerce_commands(commands)]


def parse_commands(value: Any) -> list[Command]:
    """Tolerantly read a received ``availableCommands`` value.

    ``null`` or any non-array counts as omitted (no commands); items that are not
    valid commands are skipped; an invalid input is dropped from its command;
    custom and reserved input types are kept verbatim for forwarding.
    """
    if not isinstance(value, list):
        return []
    context = {_TOLERANT: True}
    commands = []
    for item in value:
        if not isinstance(item, Mapping):
            continue
        try:
            commands.append(Command.model_validate(item, context=context))
        except ValueError:  # pydantic.ValidationError is a ValueError
            continue
    return commands


def commands_in_message(message: Any) -> list[Command] | None:
    """Commands carried by a raw JSON-RPC message, or ``None`` if it carries none.

    Recognises an ``available_commands_update`` ``session/update`` notification
    and a setup result with an ``availableCommands`` field. Parsing is tolerant.
    """
    if not isinstance(message, Mapping):
        return None
    if message.get("method") == "session/update":
        params = message.get("params")
        update = params.get("update") if isinstance(params, Mapping) else None
        if isinstance(update, Mapping) and update.get("sessionUpdate") == "available_commands_update":
            return parse_commands(update.get("availableCommands"))
        return None
    result = message.get("result")
    if "method" not in message and isinstance(result, Mapping) and "availableCommands" in result:
        return parse_commands(result.get("availableCommands"))
    return None


def _copy_json(value: Any) -> Any:
    # Cheaper than copy.deepcopy for JSON trees; keeps cached wire dicts private.
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_json(v) for v in value]
    return value
