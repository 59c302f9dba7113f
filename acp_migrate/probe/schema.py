"""The protocol's shapes the probe checks what an agent sends against, as pydantic models.

Setup results (`setup_result`) and session updates (`session_update`) are checked
against models of the ACP schema (ACP113, ACP114), every command item against the
`AvailableCommand` of the negotiated version (ACP105).
The models check what a client reads and let the rest through (`extra="allow"`,
unknown update kinds: newer than this probe), so no valid message is refused.

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


SESSION_CARRYING = ("session/new", "session/fork")  # their results create a session: they carry its id


def lacks_session(method: str, result: Any) -> bool:
    """A result of a setup that creates a session (`SESSION_CARRYING`) without its
    string `sessionId`, `null` included (ACP113's; the other checks leave it)."""
    has_id = isinstance(result, dict) and isinstance(result.get("sessionId"), str)
    return method in SESSION_CARRYING and not has_id


@cache
def setup_result(method: str) -> Any:
    """The model of a setup's result: `NewSessionResponse` and `ForkSessionResponse` carry
    the `sessionId`; all four may have `modes`, `models` and `configOptions` (each
    optional, null allowed: the schema's `Optional`). `availableCommands` is ACP103's
    and ACP105's, not checked here."""
    from pydantic import BaseModel, ConfigDict, Field, StrictStr

    class Item(BaseModel):
        model_config = ConfigDict(extra="allow", populate_by_name=True)

    class Mode(Item):
        id: StrictStr
        name: StrictStr

    class SessionModeState(Item):
        current_mode_id: StrictStr = Field(alias="currentModeId")
        available_modes: list[Mode] = Field(alias="availableModes")

    class Model(Item):
        model_id: StrictStr = Field(alias="modelId")
        name: StrictStr

    class SessionModelState(Item):
        current_model_id: StrictStr = Field(alias="currentModelId")
        available_models: list[Model] = Field(alias="availableModels")

    class ConfigOption(Item):
        id: StrictStr
        name: StrictStr
        type: StrictStr

    class SetupResult(Item):
        modes: SessionModeState | None = None
        models: SessionModelState | None = None
        config_options: list[ConfigOption] | None = Field(None, alias="configOptions")

    if method not in SESSION_CARRYING:
        return SetupResult

    class SessionCarryingResult(SetupResult):
        session_id: StrictStr = Field(alias="sessionId")

    return SessionCarryingResult


@cache
def session_update() -> Any:
    """The models of a `session/update`'s `update`: every update names its kind; the
    kinds a client renders have the fields it reads. Unknown kinds pass (newer than
    this probe); a command list is ACP103's and ACP105's (`AvailableCommand`)."""
    from pydantic import BaseModel, ConfigDict, Field, StrictStr

    class Item(BaseModel):
        model_config = ConfigDict(extra="allow", populate_by_name=True)

    class Content(Item):
        type: StrictStr

    class MessageChunk(Item):
        content: Content

    class ToolCall(Item):
        tool_call_id: StrictStr = Field(alias="toolCallId")
        title: StrictStr

    class ToolCallUpdate(Item):
        tool_call_id: StrictStr = Field(alias="toolCallId")

    class PlanEntry(Item):
        content: StrictStr
        priority: StrictStr
        status: StrictStr

    class Plan(Item):
        entries: list[PlanEntry]

    class CurrentMode(Item):
        current_mode_id: StrictStr = Field(alias="currentModeId")

    class Update(Item):
        session_update: StrictStr = Field(alias="sessionUpdate")

    kinds: dict[str, Any] = {
        "user_message_chunk": MessageChunk,
        "agent_message_chunk": MessageChunk,
        "agent_thought_chunk": MessageChunk,
        "tool_call": ToolCall,
        "tool_call_update": ToolCallUpdate,
        "plan": Plan,
        "current_mode_update": CurrentMode,
    }
    return Update, kinds


def setup_result_problems(method: str, result: Any) -> list[str]:
    """What makes a setup's result no result of its kind, as a person reads it."""
    if not isinstance(result, dict):
        return [f"the result is {_shown(result)}, not an object"]
    return _problems(setup_result(method), result)


def null_fields(method: str, result: dict[str, Any]) -> list[str]:
    """The optional fields of a setup's result sent as `null`: schema-valid (each is
    `Optional`, the schema's `anyOf [..., null]`), but a field with no value is omitted."""
    fields = setup_result(method).model_fields.items()
    keys = [field.alias or name for name, field in fields if not field.is_required()]
    return [key for key in keys if key in result and result[key] is None]


def session_update_problems(update: Any) -> list[str]:
    """What makes a `session/update`'s `update` invalid (a command list that is no array,
    and invalid command items, excepted: ACP103's and ACP105's)."""
    if not isinstance(update, dict):
        return [f"the update is {_shown(update)}, not an object"]
    base, kinds = session_update()
    problems = _problems(base, update)
    kind = update.get("sessionUpdate")
    if problems or kind not in kinds:
        return problems
    return _problems(kinds[kind], update)


def _problems(model: Any, value: dict[str, Any]) -> list[str]:
    from pydantic import ValidationError

    try:
        model.model_validate(value)
    except ValidationError as error:
        return list(dict.fromkeys(_field_problem(e) for e in error.errors()))
    return []


def _field_problem(error: dict[str, Any]) -> str:
    where = ".".join(str(part) for part in error["loc"])
    if error["type"] == "missing":
        return f"has no {where}"
    return f"{where} is {_shown(error['input'])} ({error['msg'].lower()})"


def _shown(value: Any) -> str:
    import json

    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


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
