"""The recorded wire: frames in the order they crossed stdio, and what a client makes of them.

A `Frame` is one newline-delimited line, kept even when it is not JSON (`message` is then
None and `error` says why). A `Transcript` reads the frames as a client would: the
requests the probe sent and their responses, the steps (each request the probe sends
opens one; a frame belongs to the step whose request came last before it), the
sessions each setup response created, and every `available_commands_update`. Checks
read a `Transcript`; they never look at time, only at the order of the frames.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

TO_AGENT = "client->agent"
FROM_AGENT = "agent->client"

SETUP_METHODS = ("session/new", "session/load", "session/resume", "session/fork")


@dataclass(slots=True)
class Frame:
    index: int
    direction: str  # TO_AGENT or FROM_AGENT
    at: float  # seconds since the agent started (monotonic clock)
    raw: str
    message: dict[str, Any] | None = None
    error: str | None = None  # why the line is not a JSON-RPC message

    @classmethod
    def parse(cls, index: int, direction: str, at: float, raw: str) -> Frame:
        try:
            message = json.loads(raw)
        except ValueError as exc:
            return cls(index, direction, at, raw, None, f"not JSON ({exc})")
        except RecursionError:  # the client's parser gives up as Python's does
            return cls(index, direction, at, raw, None, "JSON nested too deeply to parse")
        if not isinstance(message, dict):
            return cls(index, direction, at, raw, None, f"a JSON {type(message).__name__}, not an object")
        return cls(index, direction, at, raw, message)

    @property
    def method(self) -> str | None:
        method = (self.message or {}).get("method")
        return method if isinstance(method, str) else None

    @property
    def is_request(self) -> bool:
        return self.method is not None and "id" in (self.message or {})

    @property
    def is_notification(self) -> bool:
        return self.method is not None and "id" not in (self.message or {})

    @property
    def is_response(self) -> bool:
        message = self.message or {}
        return self.method is None and "id" in message and ("result" in message or "error" in message)

    @property
    def params(self) -> dict[str, Any]:
        params = (self.message or {}).get("params")
        return params if isinstance(params, dict) else {}

    @property
    def result(self) -> Any:
        return (self.message or {}).get("result")


@dataclass(slots=True)
class Step:
    """One request the probe sent (initialize, a setup, a prompt, a close) and its answer."""

    number: int
    method: str
    request: Frame
    response: Frame | None
    session_id: str | None  # the session it set up or addressed

    @property
    def failed(self) -> bool:
        return self.response is None or "error" in (self.response.message or {})

    @property
    def error_text(self) -> str:
        return "no response" if self.response is None else error_text(self.response.message)


DETAIL_CHARS = 300


def error_text(message: dict[str, Any] | None) -> str:
    """A JSON-RPC error as a person reads it: code, message and what `data` adds
    (`data.details`, where agents put the cause, or `data` itself)."""
    error = (message or {}).get("error")
    if not isinstance(error, dict):
        shown = json.dumps(message)[:200] if message is not None else "nothing"
        return f"unexpected answer {shown}"
    text = f"error {error.get('code')}: {error.get('message')}"
    data = error.get("data")
    if isinstance(data, dict) and "details" in data:
        data = data["details"]
    if data is not None:
        shown = data if isinstance(data, str) else json.dumps(data)
        text += f" ({shown[:DETAIL_CHARS]}{'...' if len(shown) > DETAIL_CHARS else ''})"
    return text


@dataclass(slots=True)
class CommandList:
    """An `availableCommands` value a client read: a setup result's or an update's."""

    frame: Frame
    session_id: str | None
    value: Any  # as sent: a list, null, or anything else
    in_setup_result: bool


@dataclass
class Transcript:
    frames: list[Frame]
    command: list[str] = field(default_factory=list)  # the agent's command line, for reports

    @cached_property
    def steps(self) -> list[Step]:
        responses: dict[Any, Frame] = {}
        for frame in self.frames:
            if frame.direction == FROM_AGENT and frame.is_response:
                responses.setdefault(_id_key(frame.message["id"]), frame)
        steps = []
        for frame in self.frames:
            if frame.direction != TO_AGENT or not frame.is_request:
                continue
            response = responses.get(_id_key(frame.message["id"]))
            if response is not None and response.index < frame.index:
                response = None
            session_id = frame.params.get("sessionId")
            if frame.method in ("session/new", "session/fork") and response is not None:
                result = response.result
                session_id = result.get("sessionId") if isinstance(result, dict) else None
            steps.append(
                Step(len(steps), frame.method, frame, response, session_id if isinstance(session_id, str) else None)
            )
        return steps

    def step_of(self, frame: Frame) -> Step | None:
        """The step whose request is the last one the probe sent before `frame`."""
        current = None
        for step in self.steps:
            if step.request.index > frame.index:
                break
            current = step
        return current

    @cached_property
    def initialize(self) -> Step | None:
        return next((s for s in self.steps if s.method == "initialize"), None)

    @cached_property
    def protocol_version(self) -> int:
        """The version the agent answered with (what the session speaks), else 1."""
        init = self.initialize
        if init and init.response and isinstance(init.response.result, dict):
            version = init.response.result.get("protocolVersion")
            if isinstance(version, int) and not isinstance(version, bool):
                return version
        return 1

    @cached_property
    def setup_steps(self) -> list[Step]:
        return [s for s in self.steps if s.method in SETUP_METHODS]

    def agent_frames(self) -> Iterator[Frame]:
        return (f for f in self.frames if f.direction == FROM_AGENT)

    def session_updates(self) -> Iterator[Frame]:
        return (f for f in self.agent_frames() if f.is_notification and f.method == "session/update")

    @cached_property
    def command_lists(self) -> list[CommandList]:
        """Every `availableCommands` the agent sent, in frame order."""
        lists = []
        setup_responses = {s.response.index: s for s in self.setup_steps if s.response is not None}
        for frame in self.agent_frames():
            step = setup_responses.get(frame.index)
            if step is not None and isinstance(frame.result, dict) and "availableCommands" in frame.result:
                lists.append(CommandList(frame, step.session_id, frame.result["availableCommands"], True))
            elif frame.method == "session/update":
                update = frame.params.get("update")
                if isinstance(update, dict) and update.get("sessionUpdate") == "available_commands_update":
                    session_id = frame.params.get("sessionId")
                    lists.append(
                        CommandList(
                            frame,
                            session_id if isinstance(session_id, str) else None,
                            update.get("availableCommands"),
                            False,
                        )
                    )
        return lists

    @cached_property
    def _lists_by_frame(self) -> dict[int, CommandList]:
        return {listed.frame.index: listed for listed in self.command_lists}

    def setup_of(self, listed: CommandList) -> Step | None:
        """The setup a command list belongs to (`credits`)."""
        if listed.in_setup_result:
            return next((s for s in self.setup_steps if s.response is listed.frame), None)
        return self.credits.get(listed.frame.index)

    @cached_property
    def credits(self) -> dict[int, Step]:
        """Each update's setup, whatever the timing: per session id, the first of its
        answered setups (in the order of their answers) still owed a list; else, a list
        before any such answer, the last unanswered one owed (an early list: ACP102's);
        else the last setup answered before it (a further update, which replaces the list).
        A setup is owed a list until it has one, in its result or in an update."""
        credits: dict[int, Step] = {}
        served = {s.request.index for s in self.setup_steps if _result_lists(s)}
        for listed in self.command_lists:
            if listed.in_setup_result or listed.session_id is None:
                continue
            here = listed.frame.index
            mine = [
                s
                for s in self.setup_steps
                if s.session_id == listed.session_id and not s.failed and s.request.index < here
            ]
            owed = [s for s in mine if s.request.index not in served]
            answered = sorted((s for s in owed if s.response.index < here), key=lambda s: s.response.index)
            before = [s for s in mine if s.response.index < here]
            early = [s for s in owed if s.response.index > here]
            if answered:
                owner = answered[0]
            elif early:
                owner = early[-1]  # in a burst, the one whose request came last overtook its answer
            else:
                owner = max(before, key=lambda s: s.response.index) if before else None
            if owner is not None:
                credits[here] = owner
                served.add(owner.request.index)
        return credits

    def lists_of(self, step: Step) -> list[CommandList]:
        """The lists a setup got, in order: its result's, then the updates credited to it."""
        return self._lists_by_setup.get(step.request.index, [])

    @cached_property
    def _lists_by_setup(self) -> dict[int, list[CommandList]]:
        by_setup: dict[int, list[CommandList]] = {}
        for listed in self.command_lists:
            setup = self.setup_of(listed)
            if setup is not None:
                by_setup.setdefault(setup.request.index, []).append(listed)
        return by_setup

    def owed(self) -> list[Step]:
        """The answered setups still without a command list: what the probe waits for
        before it ends the run (an agent with no commands at all makes it wait the bound)."""
        return [s for s in self.setup_steps if not s.failed and not self.lists_of(s)]

    def settle_end(self, step: Step) -> int | None:
        """The frame that ended the step's settle window: the probe's next request after
        its response (the probe waits `--settle` before sending it)."""
        if step.response is None:
            return None
        later = (s.request.index for s in self.steps if s.request.index > step.response.index)
        return next(later, None)

    def in_prompt_turn(self, frame: Frame) -> bool:
        """Whether the frame came during a prompt's turn (its request sent, not yet answered)."""
        return any(
            s.method == "session/prompt"
            and s.request.index < frame.index
            and (s.response is None or frame.index < s.response.index)
            for s in self.steps
        )

    def is_late(self, listed: CommandList) -> bool:
        """A setup's first list, sent after the setup's settle window (the probe's next
        request), not during a prompt's turn (a turn may change the list), nor after a
        close of the session (which is another matter)."""
        setup = self.setup_of(listed)
        if listed.in_setup_result or setup is None or self.lists_of(setup)[0] is not listed:
            return False
        end = self.settle_end(setup)
        if end is None or listed.frame.index <= end or self.in_prompt_turn(listed.frame):
            return False
        return not any(
            s.method == "session/close"
            and s.session_id == listed.session_id
            and not s.failed
            and s.response.index < listed.frame.index
            for s in self.steps
            if s.request.index > setup.request.index
        )

    def step_for(self, frame: Frame) -> Step | None:
        """The step a finding on `frame` is reported under: for a response, the step it
        answers; for a command list, the setup it belongs to; else the step running (the
        last request sent before the frame)."""
        answered = next((s for s in self.steps if s.response is frame), None)
        if answered is not None:  # a response: the step it answers (in a burst, not the last one sent)
            return answered
        listed = self._lists_by_frame.get(frame.index)
        setup = self.setup_of(listed) if listed is not None else None
        return setup or self.step_of(frame)

    def session_of(self, frame: Frame) -> str | None:
        """The session a frame is about, for reports and the timeline (a fork's request:
        the session it creates, not the one it names, unless it failed)."""
        if frame.method in ("session/new", "session/fork") and frame.direction == TO_AGENT:
            step = next((s for s in self.steps if s.request is frame), None)
            if step is not None and step.session_id is not None:
                return step.session_id
        session_id = frame.params.get("sessionId")
        if isinstance(session_id, str):
            return session_id
        if frame.is_response or frame.is_request:
            for step in self.steps:
                if step.response is frame or step.request is frame:
                    named = step.request.params.get("sessionId")
                    return step.session_id or (named if isinstance(named, str) else None)
        return None


def advertised(initialize_result: Any) -> dict[str, bool]:
    """The setups and the close an initialize result advertises, by method."""
    result = initialize_result if isinstance(initialize_result, dict) else {}
    capabilities = result.get("agentCapabilities") if isinstance(result.get("agentCapabilities"), dict) else {}
    session_capabilities = capabilities.get("sessionCapabilities")
    session_capabilities = session_capabilities if isinstance(session_capabilities, dict) else {}
    return {
        "session/new": True,
        "session/load": capabilities.get("loadSession") is True,
        "session/resume": session_capabilities.get("resume") is not None,
        "session/fork": session_capabilities.get("fork") is not None,
        "session/close": session_capabilities.get("close") is not None,
    }


def _result_lists(step: Step) -> bool:
    result = step.response.result if step.response is not None else None
    return isinstance(result, dict) and "availableCommands" in result


def command_names(value: Any) -> list[str]:
    """The names in an `availableCommands` value, as shown (invalid items skipped)."""
    if not isinstance(value, list):
        return []
    return [item["name"] for item in value if isinstance(item, dict) and isinstance(item.get("name"), str)]


def _id_key(value: Any) -> str:
    # A response's id is matched by value: 3 and "3" are different ids in JSON-RPC.
    return json.dumps(value, sort_keys=True)


def parse_example(text: str) -> Transcript:
    """A transcript from the compact form the rules' examples use: one frame a line,
    `-> ` for what the client sent, `<- ` for what the agent sent."""
    frames = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        arrow, _, raw = line.strip().partition(" ")
        direction = {"->": TO_AGENT, "<-": FROM_AGENT}[arrow]
        frames.append(Frame.parse(len(frames), direction, float(len(frames)) / 1000, raw))
    return Transcript(frames)
