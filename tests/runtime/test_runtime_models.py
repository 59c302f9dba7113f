"""Command models, wire shapes, tolerant parsing, setup-result attachment."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from acp.schema import (
    AvailableCommand,
    AvailableCommandInput,
    ForkSessionResponse,
    LoadSessionResponse,
    NewSessionResponse,
    ResumeSessionResponse,
    SessionMode,
    SessionModeState,
    UnstructuredCommandInput,
)
from fake_connection import ForkConnection
from pydantic import ValidationError

from acp_migrate.runtime import (
    Command,
    CommandAdvertiser,
    CustomInput,
    TextInput,
    coerce_commands,
    commands_in_message,
    commands_to_wire,
    parse_commands,
)

REPO = Path(__file__).resolve().parents[2]
SDK_DUMP = {"mode": "json", "by_alias": True, "exclude_none": True, "exclude_unset": True}  # what the SDK sends


def bound(**kwargs: object) -> CommandAdvertiser:
    """An advertiser bound to a connection that never runs (attach needs a bound one)."""
    return CommandAdvertiser(**kwargs).bind(ForkConnection())


def test_import_is_light() -> None:
    code = (
        "import json, sys, acp_migrate.runtime; "
        "print(json.dumps(sorted(m for m in ('libcst', 'typer', 'acp') if m in sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == []


def test_wire_shapes() -> None:
    web = Command(name="web", description="Search", input=TextInput(hint="query"))
    pick = Command(name="pick", description="Pick", input=CustomInput(type="_choice", options=["a"], _meta={"x": 1}))
    plain = Command(name="test", description="Run tests", _meta={"from": "skill"})
    assert commands_to_wire([web, pick, plain], 1) == [
        {"name": "web", "description": "Search", "input": {"hint": "query"}},
        {"name": "pick", "description": "Pick"},
        {"name": "test", "description": "Run tests", "_meta": {"from": "skill"}},
    ]
    assert commands_to_wire([web, pick, plain], 2) == [
        {"name": "web", "description": "Search", "input": {"type": "text", "hint": "query"}},
        {"name": "pick", "description": "Pick", "input": {"type": "_choice", "options": ["a"], "_meta": {"x": 1}}},
        {"name": "test", "description": "Run tests", "_meta": {"from": "skill"}},
    ]
    assert commands_to_wire([], 2) == [] and commands_to_wire(None, 1) == []


def test_to_wire_returns_copies() -> None:
    pick = Command(name="pick", description="Pick", input={"type": "_choice", "options": ["a"]})
    pick.to_wire(2)["input"]["options"].append("mutated")
    assert pick.to_wire(2)["input"]["options"] == ["a"]


def test_strict_coercion_for_authors() -> None:
    sdk = AvailableCommand(
        name="web", description="Search", input=AvailableCommandInput(root=UnstructuredCommandInput(hint="q"))
    )
    assert coerce_commands([sdk, {"name": "t", "description": "d", "input": {"hint": "h"}}]) == (
        Command(name="web", description="Search", input=TextInput(hint="q")),
        Command(name="t", description="d", input=TextInput(hint="h")),
    )
    with pytest.raises(ValidationError):
        Command(name="x", description="d", input={"type": "choice"})  # reserved: not for authors
    with pytest.raises(ValidationError):
        CustomInput(type="text")
    with pytest.raises(ValidationError):
        coerce_commands([{"name": "no description"}])
    with pytest.raises(TypeError):
        coerce_commands("web")
    with pytest.raises(TypeError):
        coerce_commands([42])


@pytest.mark.parametrize("garbage", [None, "web", 42, {"name": "web"}, True])
def test_parse_non_array_is_omission(garbage: object) -> None:
    assert parse_commands(garbage) == []


def test_parse_skips_invalid_items_and_keeps_unknown_inputs() -> None:
    received = [
        None,
        "web",
        {"name": "no-description"},
        {"name": 7, "description": "wrong type"},
        {"name": "v1", "description": "v1 text input", "input": {"hint": "h"}},
        {"name": "bad-input", "description": "kept without input", "input": {"type": "text"}},
        {"name": "bad-input-2", "description": "kept without input", "input": "nope"},
        {"name": "custom", "description": "c", "input": {"type": "_tree", "nodes": [{"id": 1}], "_meta": {"m": 1}}},
        {"name": "future", "description": "f", "input": {"type": "choice", "options": ["a", "b"]}},
        {"name": "extra", "description": "unknown command fields are dropped", "future": 1},
    ]
    commands = parse_commands(received)
    assert [c.name for c in commands] == ["v1", "bad-input", "bad-input-2", "custom", "future", "extra"]
    assert commands[0].input == TextInput(hint="h")
    assert commands[1].input is None and commands[2].input is None
    assert isinstance(commands[4].input, CustomInput) and commands[4].input.reserved
    # Forwarded on v2 exactly as received.
    assert commands_to_wire(commands, 2)[3:5] == received[7:9]


def test_commands_in_message() -> None:
    update = {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {
            "sessionId": "s",
            "update": {
                "sessionUpdate": "available_commands_update",
                "availableCommands": [{"name": "a", "description": "b"}, 3],
            },
        },
    }
    assert commands_in_message(update) == [Command(name="a", description="b")]
    assert commands_in_message({"id": 1, "result": {"sessionId": "s", "availableCommands": None}}) == []
    assert commands_in_message({"id": 1, "result": {"sessionId": "s"}}) is None
    other = {"method": "session/update", "params": {"sessionId": "s", "update": {"sessionUpdate": "plan"}}}
    assert commands_in_message(other) is None
    assert commands_in_message("garbage") is None


def test_attach_adds_a_field_that_is_never_null_or_empty() -> None:
    adv = bound(v1_followup=False)  # field on v1 too, so nothing needs sending
    modes = SessionModeState(current_mode_id="ask", available_modes=[SessionMode(id="ask", name="Ask")])
    base = NewSessionResponse(session_id="s1", modes=modes)
    response = adv.attach(base, "s1", [Command(name="web", description="Search", input=TextInput(hint="q"))])
    assert isinstance(response, NewSessionResponse) and response is not base
    dumped = response.model_dump(**SDK_DUMP)
    web = {"name": "web", "description": "Search", "input": {"hint": "q"}}
    assert dumped == {**base.model_dump(**SDK_DUMP), "availableCommands": [web]}
    response.available_commands = []
    assert "availableCommands" not in response.model_dump(**SDK_DUMP)
    response.available_commands = None  # type: ignore[assignment]
    assert "availableCommands" not in response.model_dump(by_alias=True)
    assert "available_commands" not in response.model_dump()
    assert "available_commands" not in json.loads(response.model_dump_json())
    # Empty lists are not attached at all.
    assert adv.attach(NewSessionResponse(session_id="s2"), "s2", []) == NewSessionResponse(session_id="s2")


def test_attach_per_response_type() -> None:
    adv = bound(v1_followup=False)
    cmds = [{"name": "a", "description": "b"}]
    for cls, kwargs in [(ResumeSessionResponse, {}), (ForkSessionResponse, {"session_id": "f"})]:
        response = adv.attach(cls(**kwargs), "x", cmds)
        assert isinstance(response, cls)
        assert response.model_dump(**SDK_DUMP)["availableCommands"] == cmds
    load = LoadSessionResponse()
    assert adv.attach(load, "x", cmds) is load  # the spec has no load field
    assert adv.attach(None, "x", cmds) is None
    assert adv.attach({"sessionId": "d"}, "d", cmds) == {"sessionId": "d", "availableCommands": cmds}


def test_attach_on_v1_waits_for_the_followup() -> None:
    adv = bound()
    base = NewSessionResponse(session_id="s1")
    assert adv.attach(base, "s1", [{"name": "a", "description": "b"}]) is base


def test_attach_takes_the_session_id_from_new_and_fork_results():
    from acp.schema import ForkSessionResponse, LoadSessionResponse, NewSessionResponse

    adv = bound()
    cmds = [{"name": "web", "description": "Search"}]
    adv.attach(NewSessionResponse(session_id="n1"), commands=cmds)
    adv.attach(ForkSessionResponse(session_id="f1"), commands=cmds)
    adv.attach({"sessionId": "d1"}, commands=cmds)
    assert adv.stats()["sessions"] + adv.stats()["held_unknown"] == 3
    with pytest.raises(TypeError, match="session_id="):
        adv.attach(LoadSessionResponse(), commands=cmds)
