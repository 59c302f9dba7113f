"""The protocol's shapes the probe checks what an agent sends against, as pydantic models.

`AvailableCommand` is the one definition of a command item (ACP105 validates every
item of every list against it): a string `name` and `description`, and an optional
`input`, an object whose shape depends on the negotiated protocol version: v1
`{"hint": ...}`; v2 `{"type": "text", "hint": ...}` or a custom type starting with `_`
(other types are reserved for future versions). Unknown keys (`_meta`) are allowed,
`input: null` too (the official schema's `input` is `anyOf` the input and `null`).

pydantic is imported when the first item is checked (`command_problems`), never at
the probe's start: a run that reads no command list does not pay for it.
"""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def available_command(protocol_version: int) -> Any:
    """The `AvailableCommand` model of a protocol version (1, or 2 and later)."""
    from typing import Annotated, Literal

    from pydantic import BaseModel, ConfigDict, Discriminator, StrictStr, StringConstraints, Tag

    class Item(BaseModel):
        model_config = ConfigDict(extra="allow")

    class InputV1(Item):
        hint: StrictStr

    class TextInput(Item):
        type: Literal["text"]
        hint: StrictStr

    class CustomInput(Item):
        type: Annotated[StrictStr, StringConstraints(pattern=r"^_")]

    def kind(value: Any) -> str:
        return "text" if isinstance(value, dict) and value.get("type") == "text" else "custom"

    InputV2 = Annotated[Annotated[TextInput, Tag("text")] | Annotated[CustomInput, Tag("custom")], Discriminator(kind)]

    class AvailableCommand(Item):
        name: StrictStr
        description: StrictStr
        input: (InputV1 if protocol_version < 2 else InputV2) | None = None

    return AvailableCommand


def command_problems(item: Any, protocol_version: int) -> list[str]:
    """What makes `item` no `AvailableCommand` of `protocol_version`, as a person reads
    it ("has no description"), in the order of its fields; [] for a valid one."""
    from pydantic import ValidationError

    try:
        available_command(protocol_version).model_validate(item)
    except ValidationError as error:
        return list(dict.fromkeys(_problem(e, protocol_version) for e in error.errors()))
    return []


def _problem(error: dict[str, Any], protocol_version: int) -> str:
    where, kind = error["loc"], error["type"]
    if not where:
        return "is not an object"
    field = where[0]
    if field != "input":
        return f"has no {field}" if kind == "missing" else f"has a {field} that is not a string"
    if kind == "model_type":
        return "has an input that is not an object"
    if protocol_version < 2:
        return "has an input without a string hint (v1 inputs are {hint})"
    if where[1] == "text":
        return "has a text input without a string hint"
    if kind == "string_pattern_mismatch":
        return f"has an input of the reserved type {error['input']!r} (custom types start with _)"
    return "has an input without a type (v2 inputs are {type, ...})"
