# Case: tab-indented module: the keyword line goes, tabs everywhere else are kept
from typing import Any

from acp.schema import InitializeResponse


class TabAgent:
	async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
		# acp-migrate: TODO: advertise `self.commands` per session; not moved automatically: class `TabAgent` has no session setup handler
		return InitializeResponse.create(
			protocol_version=protocol_version,
			name="tab-agent",
			version="0.2.0",
			load_session=True,
		)
