# Case: an SDK 0.6 agent calling its connection with request models; one built from 0.7's names (what ACP205 writes) is left
from acp import SessionNotification


async def say(conn, sid, chunk, options, tool):
    await conn.session_update(
        session_id=sid,
        update=chunk,
    )
    await conn.request_permission(session_id=sid, tool_call=tool, options=options)
    await conn.sessionUpdate(SessionNotification(session_id=sid, update=chunk))
