import asyncio
from unittest.mock import AsyncMock

from acp import NewSessionRequest
from agent import EchoAgent


def test_the_agent_built_with_a_bare_mock_opens_a_session():
    agent = EchoAgent(AsyncMock())
    response = asyncio.run(agent.newSession(NewSessionRequest(cwd="/tmp", mcpServers=[])))
    assert response.sessionId


def test_the_agent_keeps_the_mock():
    connection = AsyncMock()
    agent = EchoAgent(connection)
    assert agent._conn is connection
