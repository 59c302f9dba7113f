from acp.schema import AvailableCommand

class AgentCapabilities:
    load_session: bool
    slash_commands: list[AvailableCommand]
    def __init__(self, *, load_session: bool = ..., slash_commands: list[AvailableCommand] = ...) -> None: ...
