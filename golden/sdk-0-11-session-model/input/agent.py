import uuid

from acp import Agent
from acp.schema import ModelInfo, NewSessionResponse, SessionModelState, SetSessionModelResponse

MODELS = [ModelInfo(model_id="fast", name="Fast"), ModelInfo(model_id="deep", name="Deep")]


class PickerAgent(Agent):
    def __init__(self):
        self.model = "fast"

    async def new_session(self, cwd, mcp_servers=None, **kwargs):
        state = SessionModelState(available_models=MODELS, current_model_id=self.model)
        return NewSessionResponse(session_id=uuid.uuid4().hex, models=state)

    async def set_session_model(self, model_id, session_id, **kwargs):
        self.model = model_id
        return SetSessionModelResponse()
