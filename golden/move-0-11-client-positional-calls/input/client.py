# Case: a client written for SDK 0.8 calling the agent by position; a project's own `prompt` is left alone
import sys

from acp import ClientSideConnection, spawn_agent_process
from acp.schema import TextContentBlock


class Session:
    async def prompt(self, text: str) -> None:
        print(text)


async def ask(client, agent: str, cwd: str, stored: str) -> None:
    async with spawn_agent_process(client, sys.executable, agent) as (conn, process):
        session = await conn.new_session(cwd, [])
        await conn.load_session(cwd, stored, [])  # the same order on 1.0: left as it is
        await conn.set_session_mode("code", session.session_id)
        await conn.prompt([TextContentBlock(type="text", text="hi")], session.session_id)
        await Session().prompt("done")


async def again(conn: ClientSideConnection, session_id: str) -> None:
    await conn.prompt([TextContentBlock(type="text", text="again")], session_id)
