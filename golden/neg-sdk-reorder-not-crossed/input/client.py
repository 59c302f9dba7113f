# Case: a client written for SDK 0.8 calling the agent by position, its requirement admitting up to 0.9: no release between reordered a parameter (0.9 appended prompt's message_id), nothing to move
import sys

from acp import PROTOCOL_VERSION, spawn_agent_process
from acp.schema import TextContentBlock


async def reopen(client, agent: str, cwd: str, stored: str) -> None:
    async with spawn_agent_process(client, sys.executable, agent) as (conn, process):
        await conn.initialize(protocol_version=PROTOCOL_VERSION)
        await conn.new_session(cwd, [])
        await conn.load_session(cwd, stored, [])
        await conn.set_session_mode("code", stored)
        await conn.prompt([TextContentBlock(type="text", text="hi")], stored)
