# Case (negative): PEP 695 aliases, generic defs and classes, match and a long call chain (fast-agent's acp/slash_commands.py shape); analysed under any Python, unchanged
"""Slash commands for ACP sessions.

Each session advertises its own commands (``available_commands_update``); nothing is
sent at ``initialize`` any more (the old ``slash_commands`` capability is gone).
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

from acp.schema import AvailableCommand, AvailableCommandInput, UnstructuredCommandInput

type CommandResult = str | None
type CommandCallback = Callable[[str], Awaitable[CommandResult]]
type Registry[K, V] = dict[K, list[V]]


class CommandKind(Enum):
    STATUS = "status"
    TOOLS = "tools"
    SAVE = "save"
    CLEAR = "clear"
    MODEL = "model"


class SupportsHistory(Protocol):
    def message_history(self) -> Sequence[Any]: ...


@dataclass
class ParsedCommand:
    name: str
    arguments: list[str] = field(default_factory=list)
    raw: str = ""


@dataclass
class CommandSpec[T]:
    name: str
    description: str
    hint: str | None = None
    payload: T | None = None

    def to_acp(self) -> AvailableCommand:
        spec = AvailableCommandInput(root=UnstructuredCommandInput(hint=self.hint)) if self.hint else None
        return AvailableCommand(name=self.name, description=self.description, input=spec)


def first[T](items: Sequence[T], default: T | None = None) -> T | None:
    return items[0] if items else default


def group_by[K, V](items: Sequence[V], key: Callable[[V], K]) -> Registry[K, V]:
    groups: Registry[K, V] = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return groups


def parse_command(text: str) -> ParsedCommand | None:
    if not text.startswith("/"):
        return None
    name, _, rest = text[1:].partition(" ")
    try:
        arguments = shlex.split(rest)
    except ValueError:
        arguments = rest.split()
    return ParsedCommand(name=name.lower(), arguments=arguments, raw=text)


class StatusReport:
    def __init__(self) -> None:
        self._lines: list[str] = []

    def heading(self, text: str) -> StatusReport:
        self._lines.append(f"## {text}")
        return self

    def line(self, label: str, value: object) -> StatusReport:
        self._lines.append(f"- **{label}**: {value}")
        return self

    def blank(self) -> StatusReport:
        self._lines.append("")
        return self

    def render(self) -> str:
        return "\n".join(self._lines)


class SlashCommandHandler:
    """Handles `/status`, `/tools`, `/save`, `/clear` and `/model` for one session."""

    def __init__(
        self,
        session_id: str,
        agent: SupportsHistory,
        *,
        agent_name: str = "default",
        model_name: str | None = None,
        client_name: str | None = None,
        client_version: str | None = None,
        protocol_version: int | None = None,
    ) -> None:
        self.session_id = session_id
        self.agent = agent
        self.agent_name = agent_name
        self.model_name = model_name
        self.client_name = client_name
        self.client_version = client_version
        self.protocol_version = protocol_version
        self.usage: dict[str, Any] = {}
        self.cwd: str | None = None
        self.terminal = False
        self.fs_read = self.fs_write = False
        self.started = time.monotonic()
        self._callbacks: dict[str, CommandCallback] = {}
        self.slash_commands: dict[str, CommandSpec[CommandKind]] = {
            "status": CommandSpec("status", "Show fast-agent diagnostics", "[system|auth]", CommandKind.STATUS),
            "tools": CommandSpec("tools", "List the tools the agent can call", None, CommandKind.TOOLS),
            "save": CommandSpec("save", "Save the conversation history", "[filename]", CommandKind.SAVE),
            "clear": CommandSpec("clear", "Clear the conversation history", "[last]", CommandKind.CLEAR),
            "model": CommandSpec("model", "Show or switch the model", "[name]", CommandKind.MODEL),
        }

    def available_commands(self) -> list[AvailableCommand]:
        return [spec.to_acp() for spec in self.slash_commands.values()]

    def register(self, name: str, callback: CommandCallback) -> None:
        self._callbacks[name] = callback

    async def execute(self, text: str) -> CommandResult:
        parsed = parse_command(text)
        if parsed is None:
            return None
        match parsed:
            case ParsedCommand(name="status", arguments=[]):
                return self.status()
            case ParsedCommand(name="status", arguments=["system", *_]):
                return self.status(system=True)
            case ParsedCommand(name="tools"):
                return "No tools." if not self._callbacks else "\n".join(sorted(self._callbacks))
            case ParsedCommand(name="save", arguments=[filename]):
                return f"Saved {len(self.agent.message_history())} messages to {filename}"
            case ParsedCommand(name="clear", arguments=["last"] | []) as command:
                return f"Cleared ({command.raw})"
            case ParsedCommand(name=name) if name in self._callbacks:
                return await self._callbacks[name](" ".join(parsed.arguments))
            case _:
                return f"Unknown command: /{parsed.name}"

    def status(self, *, system: bool = False) -> str:
        uptime = time.monotonic() - self.started
        history = self.agent.message_history()
        report = (
            StatusReport()
            .heading("fast-agent status")
            .line("Session", self.session_id)
            .line("Agent", self.agent_name)
            .line("Model", self.model_name or "unknown")
            .line("Uptime", f"{uptime:.0f}s")
            .blank()
            .heading("Client")
            .line("Name", self.client_name or "unknown")
            .line("Version", self.client_version or "unknown")
            .line("Protocol", self.protocol_version if self.protocol_version is not None else "unknown")
            .blank()
            .heading("Conversation")
            .line("Messages", len(history))
            .line("User turns", sum(1 for message in history if getattr(message, "role", None) == "user"))
            .line("Assistant turns", sum(1 for message in history if getattr(message, "role", None) == "assistant"))
            .line("Tool calls", sum(len(getattr(message, "tool_calls", None) or []) for message in history))
            .blank()
            .heading("Commands")
            .line("Available", ", ".join(f"/{name}" for name in self.slash_commands))
            .line("Registered", ", ".join(f"/{name}" for name in self._callbacks) or "none")
            .line("Hints", "; ".join(f"/{spec.name} {spec.hint}" for spec in self.slash_commands.values() if spec.hint))
            .blank()
            .heading("Usage")
            .line("Input tokens", self.usage.get("input_tokens", 0))
            .line("Output tokens", self.usage.get("output_tokens", 0))
            .line("Cache reads", self.usage.get("cache_read_tokens", 0))
            .line("Cache writes", self.usage.get("cache_write_tokens", 0))
            .line("Context window", self.usage.get("context_window") or "unknown")
            .line("Context used", f"{self.usage.get('context_used', 0) / max(self.usage.get('context_window') or 1, 1):.1%}")
            .line("Requests", self.usage.get("requests", 0))
            .line("Errors", self.usage.get("errors", 0))
            .line("Last request", self.usage.get("last_request") or "never")
            .blank()
            .heading("Environment")
            .line("Working directory", self.cwd or ".")
            .line("Terminal", "yes" if self.terminal else "no")
            .line("File system", "read/write" if self.fs_write else ("read" if self.fs_read else "none"))
            .blank()
        )
        if system:
            report = (
                report.heading("System")
                .line("Kinds", ", ".join(kind.value for kind in CommandKind))
                .line("Groups", ", ".join(sorted(str(key) for key in group_by(list(self.slash_commands.values()), lambda s: s.payload))))
                .line("First", first(list(self.slash_commands)))
            )
        return report.render()


type Handlers = dict[str, SlashCommandHandler]


def describe(kind: CommandKind | str) -> str:
    match kind:
        case CommandKind.STATUS | CommandKind.TOOLS:
            return "read-only"
        case CommandKind():
            return "changes the session"
        case str() as text if text.startswith("/"):
            return describe(text[1:])
        case {"name": name, **rest}:
            return f"{name} ({len(rest)} more)"
        case [first_item, *_]:
            return str(first_item)
        case _:
            return "unknown"
