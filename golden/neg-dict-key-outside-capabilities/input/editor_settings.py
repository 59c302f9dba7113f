# Case (negative): "slashCommands" keys in dict literals that are not inside "agentCapabilities"
DEFAULT_SETTINGS = {
    "editor": {"slashCommands": True, "fontSize": 13},
    "agent": {"name": "agentpool", "slashCommands": ["plan", "web"]},
}

CLIENT_CAPABILITIES = {
    "fs": {"readTextFile": True, "writeTextFile": True},
    "terminal": True,
    "_meta": {"slash_commands": "rendered-in-palette"},
}


def session_new_result(session_id: str, commands: list[dict]) -> dict:
    return {"sessionId": session_id, "availableCommands": commands}
