from acp import TerminalHandle


async def run_make(conn, session_id) -> str:
    terminal = await conn.create_terminal(command="make", session_id=session_id)
    await terminal.wait_for_exit()
    output = await terminal.current_output()
    await terminal.release()
    return output.output


async def run_tests(conn, session_id) -> TerminalHandle:
    async with await conn.create_terminal(command="pytest", session_id=session_id) as terminal:
        return terminal.terminal_id
