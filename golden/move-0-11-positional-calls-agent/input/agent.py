# Case: an agent written for SDK 0.8 calling the client by position; on 0.11+ the arguments land in other fields
import asyncio
from typing import Any
from uuid import uuid4

from acp import Agent, InitializeResponse, NewSessionResponse, PromptResponse, run_agent
from acp.schema import PermissionOption, ToolCallUpdate


class PositionalAgent(Agent):
    def on_connect(self, conn: Any) -> None:
        self._conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=uuid4().hex)

    async def prompt(self, prompt: list, session_id: str, **kwargs: Any) -> PromptResponse:
        options = [PermissionOption(option_id="yes", name="Yes", kind="allow_once")]
        await self._conn.request_permission(options, session_id, ToolCallUpdate(tool_call_id="write-1"))
        await self._conn.write_text_file("hello", "/tmp/notes.txt", session_id)
        read = await self._conn.read_text_file("/tmp/notes.txt", session_id, 10, 1)
        await self._conn.write_text_file(read.content, "/tmp/copy.txt", session_id)
        return PromptResponse(stop_reason="end_turn")


async def main() -> None:
    await run_agent(PositionalAgent())


if __name__ == "__main__":
    asyncio.run(main())
