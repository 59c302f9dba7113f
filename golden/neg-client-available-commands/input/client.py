# Case (negative): client-side code reading available_commands from session updates
from acp.schema import AvailableCommandsUpdate, InitializeResponse, SessionNotification


class CommandPalette:
    def __init__(self) -> None:
        self.commands: dict[str, str] = {}
        self.load_session = False

    def on_initialize(self, response: InitializeResponse) -> None:
        self.load_session = bool(response.agent_capabilities.load_session)

    def on_session_update(self, notification: SessionNotification) -> None:
        update = notification.update
        if isinstance(update, AvailableCommandsUpdate):
            self.commands = {cmd.name: cmd.description for cmd in update.available_commands}

    def on_raw_update(self, params: dict) -> None:
        update = params["update"]
        if update["sessionUpdate"] == "available_commands_update":
            self.commands = {c["name"]: c["description"] for c in update["availableCommands"]}
