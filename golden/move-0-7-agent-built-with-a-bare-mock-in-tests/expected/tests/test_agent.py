import asyncio
from unittest.mock import AsyncMock

from agent import EchoAgent


def test_the_agent_built_with_a_bare_mock_opens_a_session():
    agent = EchoAgent()
    agent.on_connect(AsyncMock())
    response = asyncio.run(agent.new_session(cwd="/tmp", mcp_servers=[]))
    assert response.sessionId


def test_the_agent_keeps_the_mock():
    connection = AsyncMock()
    agent = EchoAgent()
    agent.on_connect(connection)
    assert agent._conn is connection
