# Case: calls of a handler fix moves that it cannot move (a request held in a variable, positional fields, a field 0.6 required missing, getattr) are named; an instance's call is moved, in this file and in a test importing the class
from acp import NewSessionRequest, NewSessionResponse, PromptRequest, PromptResponse


class Sessions:
    async def newSession(self, params: NewSessionRequest) -> NewSessionResponse:
        return NewSessionResponse(sessionId=params.cwd)

    async def prompt(self, params: PromptRequest) -> PromptResponse:
        request = NewSessionRequest(cwd="/", mcpServers=[])
        await self.newSession(request)
        await self.newSession(NewSessionRequest("/", []))
        await self.newSession(NewSessionRequest(cwd=None))
        self.handler = getattr(self, "newSession")
        return PromptResponse(stopReason="end_turn")


async def warm_up():
    sessions = Sessions()
    return await sessions.newSession(NewSessionRequest(cwd="/", mcpServers=[]))
