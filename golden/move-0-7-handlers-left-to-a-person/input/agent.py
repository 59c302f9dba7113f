# Case: 0.6 handlers fix cannot move alone: a request model passed on, `field_meta` read, a local named as a parameter
from acp import Agent, NewSessionRequest, NewSessionResponse, PromptRequest, PromptResponse
from acp.schema import CancelNotification


class SessionsAgent(Agent):
    async def newSession(self, params: NewSessionRequest) -> NewSessionResponse:
        return await self.sessions.create(params)

    async def prompt(self, params: PromptRequest) -> PromptResponse:
        self.meta = params.field_meta
        return PromptResponse(stopReason="end_turn")

    async def cancel(self, params: CancelNotification) -> None:
        session_id = self.sessions.find(params.sessionId)
        self.sessions.cancel(session_id)

    async def authenticate(self, method_id: str) -> None:
        # The keyword form already (one parameter, no request model): left alone.
        self.method = method_id
