# Case: a client of SDK 0.6 answering from its request models (`params.options`, `params.path`), moved to 1.0: each handler takes its fields by keyword, the factory becomes connect_to_agent, the connection annotated Agent
import asyncio
import sys

from acp import PROTOCOL_VERSION, Client, connect_to_agent
from acp.interfaces import Agent
from acp.schema import (
    AllowedOutcome,
    ReadTextFileResponse,
    RequestPermissionResponse,
    TextContentBlock,
    WriteTextFileResponse,
)


class AnsweringClient(Client):
    def __init__(self) -> None:
        self.written = {}

    def on_connect(self, conn: Agent) -> None:
        self._conn = conn

    async def request_permission(self, session_id, tool_call, options, **kwargs) -> RequestPermissionResponse:
        option = options[0]
        return RequestPermissionResponse(outcome=AllowedOutcome(optionId=option.optionId, outcome="selected"))

    async def write_text_file(self, session_id, path, content, **kwargs) -> WriteTextFileResponse:
        self.written[path] = content
        print(f"wrote {path}: {content}", flush=True)
        return WriteTextFileResponse()

    async def read_text_file(self, session_id, path, **kwargs) -> ReadTextFileResponse:
        return ReadTextFileResponse(content=f"{path} of {session_id}")

    async def session_update(self, session_id, update, **kwargs) -> None:
        print(f"update of {session_id}: {update.content.text}", flush=True)


async def main(agent: str) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, agent, *sys.argv[2:], stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    conn = connect_to_agent(AnsweringClient(), proc.stdin, proc.stdout)
    await conn.initialize(protocol_version=PROTOCOL_VERSION)
    session = await conn.new_session(cwd="/", mcp_servers=[])
    await conn.prompt(session_id=session.sessionId, prompt=[TextContentBlock(type="text", text="ask")])
    proc.terminate()
    await proc.wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
