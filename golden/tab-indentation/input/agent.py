# Case: tab-indented module: the keyword line goes, the rewire's new lines are tab-indented, tabs everywhere else are kept
from typing import Any

from acp.schema import InitializeResponse, NewSessionResponse


class TabAgent:
	def on_connect(self, conn) -> None:
		self.conn = conn

	async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
		return InitializeResponse.create(
			protocol_version=protocol_version,
			name="tab-agent",
			version="0.2.0",
			slash_commands=self.commands,
			load_session=True,
		)

	async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
		return NewSessionResponse(session_id="s1")
