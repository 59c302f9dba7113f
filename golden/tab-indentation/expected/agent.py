# Case: tab-indented module: the keyword line goes, the rewire's new lines are tab-indented, tabs everywhere else are kept
from typing import Any

from acp.schema import InitializeResponse, NewSessionResponse
from acp_migrate.runtime import CommandAdvertiser


class TabAgent:
	def on_connect(self, conn) -> None:
		self.conn = conn
		self.command_advertiser = CommandAdvertiser().bind(conn)

	async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
		self.command_advertiser.advertise(lambda: self.commands)
		return InitializeResponse.create(
			protocol_version=protocol_version,
			name="tab-agent",
			version="0.2.0",
			load_session=True,
		)

	async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
		return NewSessionResponse(session_id="s1")
