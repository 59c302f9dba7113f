# Case (negative): slash_commands= passed to another class and another function, not to ACP schema classes
from dataclasses import dataclass, field

from acp.schema import AgentCapabilities


@dataclass
class ServerConfig:
    name: str
    slash_commands: list[str] = field(default_factory=list)


def build_server(config: ServerConfig, *, slash_commands: bool = True) -> dict:
    return {"name": config.name, "commands_enabled": slash_commands}


def main() -> None:
    config = ServerConfig(name="agentpool", slash_commands=["plan", "web"])
    server = build_server(config, slash_commands=False)
    caps = AgentCapabilities(load_session=True)
    print(server, caps)
