# Case: a client written for SDK 0.7 calling the agent by position, its requirement admitting up to 0.10: 0.8 swapped load_session's servers and session id, 0.10 put additional directories into new_session and first in list_sessions; prompt kept its order
import sys

from acp import PROTOCOL_VERSION, spawn_agent_process
from acp.schema import TextContentBlock


async def reopen(client, agent: str, cwd: str, stored: str) -> None:
    async with spawn_agent_process(client, sys.executable, agent) as (conn, process):
        await conn.initialize(protocol_version=PROTOCOL_VERSION)
        await conn.new_session(cwd=cwd, mcp_servers=[])
        await conn.list_sessions(cursor=None, cwd=cwd)
        await conn.load_session(cwd=cwd, mcp_servers=[], session_id=stored)
        await conn.prompt([TextContentBlock(type="text", text="hi")], stored)
