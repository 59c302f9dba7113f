# Case: SDK 0.4.9, a session that sends its own list (`conn.sessionUpdate(SessionNotification(...))`,
# the release's camelCase API) inside its setup handler, and the initialize list built from the
# client's capabilities (`params.clientCapabilities`, the release's attribute names)
import asyncio

from acp import AgentSideConnection, InitializeRequest, InitializeResponse, stdio_streams
from acp.schema import (
    AgentCapabilities,
    AvailableCommand,
    AvailableCommandsUpdate,
    LoadSessionRequest,
    NewSessionRequest,
    NewSessionResponse,
    SessionNotification,
)


class NotesAgent:
    def __init__(self, conn: AgentSideConnection) -> None:
        self._conn = conn

    async def initialize(self, params: InitializeRequest) -> InitializeResponse:
        commands = [AvailableCommand(name="web", description="Search the web")]
        if params.clientCapabilities and params.clientCapabilities.fs.readTextFile:
            commands.append(AvailableCommand(name="read", description="Read a file"))
        return InitializeResponse(
            protocolVersion=params.protocolVersion,
            agentCapabilities=AgentCapabilities(loadSession=True, slashCommands=commands),
        )

    async def newSession(self, params: NewSessionRequest) -> NewSessionResponse:
        return NewSessionResponse(sessionId="notes-1")

    async def loadSession(self, params: LoadSessionRequest) -> None:
        notes = AvailableCommand(name="notes", description="Show this session's notes")
        await self._conn.sessionUpdate(
            SessionNotification(
                sessionId=params.sessionId,
                update=AvailableCommandsUpdate(sessionUpdate="available_commands_update", availableCommands=[notes]),
            )
        )


async def main() -> None:
    reader, writer = await stdio_streams()
    AgentSideConnection(lambda conn: NotesAgent(conn), writer, reader)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
