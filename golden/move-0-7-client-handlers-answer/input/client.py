# Case: a client of SDK 0.6 answering from its request models (`params.options`, `params.path`), moved to 1.0: each handler takes its fields by keyword, the factory becomes connect_to_agent, the connection annotated Agent
import asyncio
import sys

from acp import PROTOCOL_VERSION, Client, ClientSideConnection, InitializeRequest, NewSessionRequest, PromptRequest
from acp.schema import (
    AllowedOutcome,
    ReadTextFileRequest,
    ReadTextFileResponse,
    RequestPermissionRequest,
    RequestPermissionResponse,
    SessionNotification,
    TextContentBlock,
    WriteTextFileRequest,
    WriteTextFileResponse,
)


class AnsweringClient(Client):
    def __init__(self, conn: ClientSideConnection) -> None:
        self._conn = conn
        self.written = {}

    async def requestPermission(self, params: RequestPermissionRequest) -> RequestPermissionResponse:
        option = params.options[0]
        return RequestPermissionResponse(outcome=AllowedOutcome(optionId=option.optionId, outcome="selected"))

    async def writeTextFile(self, params: WriteTextFileRequest) -> WriteTextFileResponse:
        self.written[params.path] = params.content
        print(f"wrote {params.path}: {params.content}", flush=True)
        return WriteTextFileResponse()

    async def readTextFile(self, params: ReadTextFileRequest) -> ReadTextFileResponse:
        return ReadTextFileResponse(content=f"{params.path} of {params.sessionId}")

    async def sessionUpdate(self, params: SessionNotification) -> None:
        update = params.update
        print(f"update of {params.sessionId}: {update.content.text}", flush=True)


async def main(agent: str) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, agent, *sys.argv[2:], stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    conn = ClientSideConnection(lambda conn: AnsweringClient(conn), proc.stdin, proc.stdout)
    await conn.initialize(InitializeRequest(protocolVersion=PROTOCOL_VERSION))
    session = await conn.newSession(NewSessionRequest(cwd="/", mcpServers=[]))
    await conn.prompt(PromptRequest(sessionId=session.sessionId, prompt=[TextContentBlock(type="text", text="ask")]))
    proc.terminate()
    await proc.wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
