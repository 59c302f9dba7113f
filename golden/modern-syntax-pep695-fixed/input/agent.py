# Case: an agent written with PEP 695 syntax (type aliases, generic def and class, match, a long chain) loses slash_commands=[] under any Python
from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from acp.schema import (
    AgentCapabilities,
    InitializeResponse,
    NewSessionResponse,
    PromptCapabilities,
    PromptResponse,
)

type SessionId = str
type Handler[**P] = Callable[P, Awaitable[str]]
type Pair[K, V] = tuple[K, V]


@dataclass
class Registry[K, V]:
    entries: dict[K, V] = field(default_factory=dict)

    def add(self, key: K, value: V) -> Registry[K, V]:
        self.entries[key] = value
        return self

    def pairs(self) -> list[Pair[K, V]]:
        return list(self.entries.items())


def last[T: (str, bytes)](items: Sequence[T]) -> T | None:
    return items[-1] if items else None


class ModernAgent:
    def __init__(self) -> None:
        self.sessions: Registry[SessionId, list[str]] = Registry()

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        capabilities = AgentCapabilities(
            load_session=True,
            slash_commands=[],
            prompt_capabilities=PromptCapabilities(audio=False, image=True),
        )
        return InitializeResponse(protocol_version=protocol_version, agent_capabilities=capabilities)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        session_id: SessionId = f"session-{len(self.sessions.entries) + 1}"
        (
            self.sessions.add(session_id, [])
            .add(f"{session_id}-a", ["a"])
            .add(f"{session_id}-b", ["b"])
            .add(f"{session_id}-c", ["c"])
            .add(f"{session_id}-d", ["d"])
            .add(f"{session_id}-e", ["e"])
            .add(f"{session_id}-f", ["f"])
            .add(f"{session_id}-g", ["g"])
        )
        return NewSessionResponse(session_id=session_id)

    async def prompt(self, prompt: list[Any], session_id: SessionId, **kwargs: Any) -> PromptResponse:
        history = self.sessions.entries.setdefault(session_id, [])
        for block in prompt:
            match block:
                case {"type": "text", "text": str(text)}:
                    history.append(text)
                case {"type": "resource_link", "uri": uri, **_rest}:
                    history.append(f"<{uri}>")
                case [first, *_] if isinstance(first, str):
                    history.append(first)
                case _:
                    pass
        return PromptResponse(stop_reason="end_turn" if last(history) is not None else "refusal")
