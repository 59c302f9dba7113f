from acp import NewSessionRequest

from agent import Sessions


async def test_new_session():
    sessions = Sessions()
    answer = await sessions.newSession(NewSessionRequest(cwd="/", mcpServers=[]))
    assert answer.sessionId == "/"


async def test_new_session_from_a_request():
    request = NewSessionRequest(cwd="/", mcpServers=[])
    answer = await Sessions().newSession(request)
    assert answer.sessionId == "/"
