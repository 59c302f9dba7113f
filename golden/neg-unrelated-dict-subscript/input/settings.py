# Case (negative): config["slash_commands"] on an unrelated settings dict is not a read of the removed field
import tomllib
from pathlib import Path


def load_settings(path: Path) -> dict:
    config = tomllib.loads(path.read_text())
    config.setdefault("slash_commands", {"enabled": True, "prefix": "/"})
    return config


def commands_enabled(config: dict) -> bool:
    return bool(config["slash_commands"]["enabled"])


def command_prefix(config: dict) -> str:
    ui = config.get("ui", {})
    return ui["slashCommands"]["prefix"] if "slashCommands" in ui else "/"
