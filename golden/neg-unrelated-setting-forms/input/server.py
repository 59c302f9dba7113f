# Case (negative): slash_commands set on other classes and dicts (a server's own settings): no finding, nothing changes
from dataclasses import dataclass, field
from typing import Any

from acp.schema import AgentCapabilities
from pydantic import BaseModel


class ServerSettings(BaseModel):
    slash_commands: list[str] = []


@dataclass
class CommandStore:
    slash_commands: list[str] = field(default_factory=list)


class Server:
    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.slash_commands: list[str] = []
        setattr(self, "slash_commands", ["plan"])
        self.store = CommandStore(**{"slash_commands": ["plan"]})

    def reload(self, names: list[str]) -> ServerSettings:
        options = {"slash_commands": names}
        self.store = CommandStore(**options)
        self.store.slash_commands = names
        return self.settings.model_copy(update={"slash_commands": names})

    def status(self) -> dict[str, Any]:
        caps = AgentCapabilities(load_session=True)
        return {
            "capabilities": caps.model_dump(),
            "ui": dict(slashCommands=True),
            "settings": {"slash_commands": self.settings.slash_commands},
        }
