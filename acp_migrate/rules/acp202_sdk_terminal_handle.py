"""ACP202 sdk-terminal-handle: SDK 0.8 removes `TerminalHandle`: `create_terminal` answers
a `CreateTerminalResponse` (the terminal's id), and the handle's methods become the
connection's, each taking the session and terminal ids.

Reported, never edited: an import of `TerminalHandle` (it fails on 0.8), and the handle
used as an object: a method of it called on what `await ....create_terminal(...)` gave
(`current_output`, `wait_for_exit`, `kill`, `release`, `aclose`, `close`), or the handle
held by `async with`. A person rewrites each call on the connection, where the session
id is at hand, and the release the `async with` did in a `finally`. Runs when the SDK
target is 0.8 or newer and the code is written for an older release.
"""

from __future__ import annotations

from acp_migrate.rules.base import Example, Report, Rule
from acp_migrate.rules.shared.renamed import Removal

# The handle's method -> the connection's (0.8), by its keyword arguments.
METHODS = {
    "current_output": "terminal_output",
    "wait_for_exit": "wait_for_terminal_exit",
    "kill": "kill_terminal",
    "release": "release_terminal",
    "aclose": "release_terminal",
    "close": "release_terminal",
}
WHY = "`create_terminal` answers a `CreateTerminalResponse`; call the connection's terminal methods with its `terminal_id`"


class SdkTerminalHandle(Removal, Rule):
    code = "ACP202"
    name = "sdk-terminal-handle"
    summary = "SDK 0.8 removes `TerminalHandle`: call the connection's terminal methods with the terminal id."
    fixable = False
    sdk_release = "0.8.0"
    why = {"TerminalHandle": WHY}
    triggers = (b"TerminalHandle", b"create_terminal")
    screen_words = frozenset({"TerminalHandle", "create_terminal"})
    examples = (
        Example(
            before=(
                "async def run(conn, session_id):\n"
                '    terminal = await conn.create_terminal(command="make", session_id=session_id)\n'
                "    await terminal.wait_for_exit()\n"
                "    return await terminal.current_output()\n"
            ),
            resolved=(
                "async def run(conn, session_id):\n"
                '    created = await conn.create_terminal(command="make", session_id=session_id)\n'
                '    ids = {"session_id": session_id, "terminal_id": created.terminal_id}\n'
                "    try:\n"
                "        await conn.wait_for_terminal_exit(**ids)\n"
                "        return await conn.terminal_output(**ids)\n"
                "    finally:\n"
                "        await conn.release_terminal(**ids)\n"
            ),
        ),
        Example(
            before=(
                "async def run(conn, session_id):\n"
                '    created = await conn.create_terminal(command="make", session_id=session_id)\n'
                "    return created.terminal_id\n"
            ),
            flagged=False,
        ),
    )

    def __init__(self, context) -> None:
        super().__init__(context)
        self.handles: set[tuple[object, str]] = set()  # (function, name) holding a handle

    def visit_Assign(self, node) -> None:
        import libcst as cst

        if _creates_terminal(node.value):
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    self.handles.add((self.context.function, target.target.value))

    def visit_Call(self, node) -> None:
        import libcst as cst

        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in METHODS):
            return
        held = isinstance(func.value, cst.Name) and (self.context.function, func.value.value) in self.handles
        if held or _creates_terminal(func.value):
            method = func.attr.value
            message = (
                f"`.{method}()` of a `TerminalHandle`, which SDK 0.8 removes: "
                f"`await conn.{METHODS[method]}(session_id=..., terminal_id=...)`"
            )
            self.context.report(Report(node, self.code, message, False))

    def visit_WithItem(self, node) -> None:
        if _creates_terminal(node.item):
            message = f"`async with` a `TerminalHandle`, which SDK 0.8 removes: {WHY}, then `release_terminal`"
            self.context.report(Report(node, self.code, message, False))


def _creates_terminal(node) -> bool:
    import libcst as cst

    if isinstance(node, cst.Await):
        node = node.expression
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "create_terminal"
    )
