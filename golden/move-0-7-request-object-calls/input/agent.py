# Case: an SDK 0.6 agent calling its connection with request models; one built from 0.7's names (what ACP205 writes) is left
from acp import SessionNotification, RequestPermissionRequest


async def say(conn, sid, chunk, options, tool):
    await conn.sessionUpdate(
        SessionNotification(
            sessionId=sid,
            update=chunk,
        )
    )
    await conn.requestPermission(RequestPermissionRequest(sessionId=sid, toolCall=tool, options=options))
    await conn.sessionUpdate(SessionNotification(session_id=sid, update=chunk))
