"""The SDK 0.7 silent break, on the real SDK (the suite's): an agent written for the
SDK 0.6 (camelCase handlers taking one `params`) subclassing `acp.Agent`. The router
calls the inherited protocol stub `new_session`, never `newSession`: `session/new` is
answered with `null`, and no error appears anywhere."""

import asyncio

from acp import Agent, InitializeResponse, run_agent


class EchoAgent(Agent):
    async def initialize(self, protocol_version, client_capabilities=None, client_info=None, **kwargs):
        return InitializeResponse(protocol_version=protocol_version)

    async def newSession(self, params):  # the 0.6 name: never reached on 0.7+
        return {"sessionId": "sess-1"}


asyncio.run(run_agent(EchoAgent()))
