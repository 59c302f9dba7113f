# Part of the case: the session class acp_agent.py keeps per cwd, which sends its own list
import asyncio
from typing import Any

from acp.helpers import update_available_commands
from acp.schema import AvailableCommand


class ACPSession:
    def __init__(self, client: Any, session_id: str) -> None:
        self.client = client
        self.session_id = session_id

    def send_available_commands_update(self) -> asyncio.Task:
        commands = [AvailableCommand(name="plan", description="Plan the work")]
        return asyncio.create_task(self.client.session_update(self.session_id, update_available_commands(commands)))
