# Case: keyword is the last element of a multi-line call without trailing comma: none is added
from typing import Any

from acp.schema import InitializeResponse


class NoCommaAgent:
    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse.create(
            protocol_version=protocol_version,
            name="no-comma",
            version="2.0.0",
            load_session=True,
            slash_commands=[]
        )
