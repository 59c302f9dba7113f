# Case: a spy asserting the command getter is called once at initialize: fix moves that call to
# each session setup; the test is named (ACP008), left for a person
import asyncio
from unittest import mock

from notes.agent import NotesAgent


def test_commands_read_once_at_initialize():
    agent = NotesAgent()
    with mock.patch.object(NotesAgent, "get_commands", wraps=agent.get_commands) as spy:
        asyncio.run(agent.initialize(protocol_version=1))
    spy.assert_called_once()


def test_initialize_answers():
    response = asyncio.run(NotesAgent().initialize(protocol_version=1))
    assert response.protocol_version == 1
