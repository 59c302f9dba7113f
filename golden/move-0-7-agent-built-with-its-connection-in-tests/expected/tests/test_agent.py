import asyncio
from unittest.mock import AsyncMock

from acp import AgentSideConnection
from agent import EchoAgent, ShoutingAgent, make_for_tests


def test_the_agent_built_with_a_mock_connection_opens_a_session():
    agent = EchoAgent()
    agent.on_connect(AsyncMock(spec=AgentSideConnection))
    response = asyncio.run(agent.new_session(cwd="/tmp", mcp_servers=[]))
    assert response.sessionId


def test_the_agent_keeps_the_connection_it_is_given():
    connection = AsyncMock(spec=AgentSideConnection)
    assert make_for_tests(connection)._conn is connection


def test_a_subclass_keeps_its_connection_and_its_own_argument():
    connection = AsyncMock(spec=AgentSideConnection)
    agent = ShoutingAgent(connection, 11)
    assert (agent._conn, agent.volume) == (connection, 11)
