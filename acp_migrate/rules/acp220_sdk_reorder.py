"""ACP220 sdk-reorder: a positional call of a connection method whose
parameters the SDK reordered; on the target the arguments land in other fields.

Three releases moved the positional parameters of the connection methods; a call
written for an earlier release runs on a later one with its arguments in other fields,
silently where their types fit:

- 0.8.0 swapped `load_session`'s `mcp_servers` and `session_id`;
- 0.10.0 inserted `additional_directories`: first in `list_sessions` (a 0.7-0.9
  `list_sessions(None, cwd)` sends the cwd as the cursor), second in `new_session`,
  third in `load_session`, `resume_session` and `fork_session`;
- 0.11.0 put `session_id` first: a 0.7-0.10 `write_text_file(content, path,
  session_id)` sends the file's content as `sessionId` (also `request_permission`,
  `read_text_file`, `create_terminal`, `set_session_mode`, `prompt`, `load_session`,
  `resume_session`, `fork_session`, `list_sessions`).

The rule runs when the target crosses any of them, and reads each call against the
signature of the release the code was written for (the lowest the project's
requirement admits, or the method's first release when later: `resume_session`, new in
0.7.1) and the target's. A call meaning the same on both is left as it is (a 0.7
`prompt(blocks, session_id)` on 0.10).

`fix` passes the arguments by keyword, named as the written-for release names them. No
parameter was renamed from 0.7.0 to 1.0, so the call then means the same on both
releases, and the code can merge before the pin is raised. Reported for a person: a
call whose release is unknown (no requirement says: `--target-sdk` alone), with
`*args`, or passing a parameter the target does not have (`list_sessions`'s
`additional_directories` and `prompt`'s `message_id`, gone in 0.11.0: by keyword it
would go out in `_meta`; a renamed one would be reported alike, a person knowing
whether the value still fits); `set_session_model`, gone in 0.11.0, is left to the
rule of its removal.

Handler definitions need nothing: every release from 0.7.0 to 1.0 calls an agent's or
a client's handler by keyword (`func(**params)` in the SDK's router), so a 0.7
`load_session(self, cwd, mcp_servers, session_id)` receives its arguments whole on
every release.

Calls on `self` are the class's own methods, and a file importing nothing of `acp`
holds no SDK connection: both are left alone. The methods an agent class may define
as well (`prompt`, `load_session`, `set_session_mode`, ...) are read only on a
client's connection the function holds by name: a parameter annotated
`ClientSideConnection` (or `acp.Agent`), `async with spawn_agent_process(...) as
(conn, process)`, `conn = ClientSideConnection(...)`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acp_migrate.rules.base import Example, Report, Rule
from acp_migrate.rules.shared.sdk_signatures import REORDERING_RELEASES, SIGNATURES, parameters

if TYPE_CHECKING:
    import libcst as cst

# Connection methods an agent class may define too: fixed only on a client's connection.
AGENT_HANDLERS = frozenset(
    {
        "prompt",
        "new_session",
        "load_session",
        "resume_session",
        "fork_session",
        "list_sessions",
        "set_session_mode",
        "set_session_model",
    }
)
# Methods the SDK takes one request model for as well, on every release from 0.7.0
# (`compatible_class` wraps those whose name has no underscore): `conn.prompt(request)`.
REQUEST_MODEL_TAKEN = frozenset({"prompt"})
CONNECTORS = frozenset({"spawn_agent_process", "ClientSideConnection", "connect_to_agent"})
CONNECTION_TYPES = frozenset(
    {"acp.ClientSideConnection", "acp.client.ClientSideConnection", "acp.Agent", "acp.interfaces.Agent"}
)


class PositionalReorderedCall(Rule):
    code = "ACP220"
    name = "sdk-reorder"
    summary = "SDK 0.8, 0.10 and 0.11 reordered parameters."
    fixable = True
    sdk_release = REORDERING_RELEASES
    triggers = tuple(method.encode() for method in SIGNATURES)
    screen_words = frozenset(SIGNATURES)
    examples = (
        Example(
            before=(
                "from acp import Client\n"
                "\n"
                "\n"
                "async def save(conn: Client, session_id: str, path: str, text: str) -> None:\n"
                "    await conn.write_text_file(text, path, session_id)\n"
            ),
            after=(
                "from acp import Client\n"
                "\n"
                "\n"
                "async def save(conn: Client, session_id: str, path: str, text: str) -> None:\n"
                "    await conn.write_text_file(content=text, path=path, session_id=session_id)\n"
            ),
            target_sdk="0.12.1",
            written_for="0.10.0",
        ),
        Example(
            before=(
                "from acp import ClientSideConnection\n"
                "\n"
                "\n"
                "async def reopen(conn: ClientSideConnection, cwd: str, session_id: str) -> None:\n"
                "    await conn.load_session(cwd, [], session_id)\n"
            ),
            after=(
                "from acp import ClientSideConnection\n"
                "\n"
                "\n"
                "async def reopen(conn: ClientSideConnection, cwd: str, session_id: str) -> None:\n"
                "    await conn.load_session(cwd=cwd, mcp_servers=[], session_id=session_id)\n"
            ),
            target_sdk="0.10.1",
            written_for="0.7.0",
        ),
        Example(
            before=(
                "from acp import ClientSideConnection\n"
                "\n"
                "\n"
                "async def resume(conn: ClientSideConnection, cwd: str, session_id: str) -> None:\n"
                "    await conn.resume_session(cwd, session_id)\n"
            ),
            after=(
                "from acp import ClientSideConnection\n"
                "\n"
                "\n"
                "async def resume(conn: ClientSideConnection, cwd: str, session_id: str) -> None:\n"
                "    await conn.resume_session(cwd=cwd, session_id=session_id)\n"
            ),
            target_sdk="1.0.0",
            written_for="0.7.0",  # resume_session is new in 0.7.1: read as 0.7.1's
        ),
        Example(
            before=(
                "from acp import Client\n"
                "\n"
                "\n"
                "async def save(conn: Client, session_id: str, path: str, text: str) -> None:\n"
                "    await conn.write_text_file(session_id, path, text)\n"
            ),
            flagged=False,
            target_sdk="1.0.0",
            written_for="0.11.0",
        ),
        Example(
            before=(
                "from acp import ClientSideConnection\n"
                "from acp.schema import PromptRequest\n"
                "\n"
                "\n"
                "async def ask(conn: ClientSideConnection, request: PromptRequest) -> None:\n"
                "    await conn.prompt(request)\n"
            ),
            flagged=False,
            target_sdk="1.0.0",
            written_for="0.8.0",
        ),
        Example(
            before=(
                "import acp\n"
                "\n"
                "\n"
                "async def ask(conn: acp.Client, session_id: str, options: list, tool_call) -> None:\n"
                "    await conn.request_permission(options, session_id, tool_call)\n"
            ),
            resolved=(
                "import acp\n"
                "\n"
                "\n"
                "async def ask(conn: acp.Client, session_id: str, options: list, tool_call) -> None:\n"
                "    await conn.request_permission(options=options, session_id=session_id, tool_call=tool_call)\n"
            ),
            target_sdk="1.0.0",
        ),
    )

    def visit_Call(self, node: cst.Call) -> None:
        import libcst as cst

        from acp_migrate.sdk import release

        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in SIGNATURES:
            return
        if isinstance(func.value, cst.Name) and func.value.value in ("self", "cls"):
            return
        positional = [arg for arg in node.args if arg.keyword is None and not arg.star]
        starred = any(arg.star == "*" for arg in node.args)
        if not (positional or starred) or not self._imports_sdk():
            return
        if func.attr.value in REQUEST_MODEL_TAKEN and len(node.args) == 1 and positional:
            return  # `conn.prompt(PromptRequest(...))`: a request model, not a reordered parameter
        if func.attr.value in AGENT_HANDLERS and not self._client_connection(func.value):
            return  # `session.prompt(text)`: a method of the project's own, as likely
        sdk = self.context.settings.sdk
        if sdk is None:  # the rule runs only with a target (`Rule.runs_with`)
            return
        method = func.attr.value
        target = parameters(method, sdk.version)
        if target is None:
            return  # the target has no such method: the rule of its removal reports it
        call = self.context.code(node.func)
        if sdk.written_for is None:
            if self._readings_differ(method, len(positional), sdk.version):
                self._report(
                    node,
                    f"`{call}(...)` passes arguments by position, and no requirement says "
                    f"which release's order they follow; {self._changes(method)}: pass them by keyword",
                )
            return
        # A snake_case call follows a release having the method (0.6 spelled them in
        # camelCase, `resume_session` is new in 0.7.1): the first the requirement admits.
        written_for = max(sdk.written_for, SIGNATURES[method][0][0], key=release)
        written = parameters(method, written_for)
        if written is None:
            return  # gone before the code's release (`set_session_model`): not its call
        if starred or len(positional) > len(written):
            self._report(
                node,
                f"`{call}(...)` passes arguments by position ({self._changes(method)}); "
                f"pass them by keyword, as {written_for} names them",
            )
            return
        names = written[: len(positional)]
        if names == target[: len(positional)]:
            return
        moved = (
            f"`{call}(...)` passes {', '.join(names)} by position, and on {sdk.version} "
            f"they land in {', '.join(target[: len(positional)])}"
        )
        lost = [name for name in names if name not in target]
        if lost:
            self._report(node, f"{moved}; {sdk.version} has no parameter {', '.join(lost)}: decide what it becomes")
            return
        report = Report(node, self.code, f"{moved}: pass them by keyword", fixable=True)
        keywords = {arg: _keyword(arg, name) for arg, name in zip(positional, names, strict=True)}
        with self.context.fix(report):
            statement = self._laid_out(node, keywords)
            if statement is not None:
                self.context.replace(self.context.statements[-1], statement)
                return
            for arg, keyword in keywords.items():
                self.context.replace(arg, keyword)

    def _laid_out(self, node: cst.Call, keywords: dict[cst.Arg, cst.Arg]) -> cst.BaseStatement | None:
        """The statement holding the call, laid out again as the project's formatter
        would, when the call ends the one-line statement and keywords push it past the
        line length; None: the arguments are edited where they stand."""
        import libcst as cst

        from acp_migrate.rules.shared.generated import call_statement

        module, style = self.context.module, self.context.settings.style
        statement = self.context.statements[-1] if self.context.statements else None
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            return None
        line = module.code_for_node(statement.with_changes(leading_lines=[])).rstrip("\r\n")
        call = module.code_for_node(node)
        depth = sum(isinstance(n, cst.IndentedBlock) for n in self.context.lineage)
        width = depth * len(module.default_indent.expandtabs(4))
        added = sum(len(k.keyword.value) + 1 for k in keywords.values() if k.keyword is not None)
        if "\n" in line or not line.endswith(call) or width + len(line) + added <= style.line_length:
            return None
        if any(_positional_call(arg.value) for arg in node.args):
            return None  # a call of its own to edit inside: edited where it stands
        args = [
            module.code_for_node(keywords.get(arg, arg).with_changes(comma=cst.MaybeSentinel.DEFAULT))
            for arg in node.args
        ]
        prefix = line[: len(line) - len(call)]
        return call_statement(prefix, module.code_for_node(node.func), args, depth=depth, module=module, style=style)

    def _client_connection(self, receiver: cst.BaseExpression) -> bool:
        """Whether `receiver` is a name the enclosing function holds a client's
        connection in: a parameter annotated so, `async with spawn_agent_process(...) as
        (name, process)`, `name = ClientSideConnection(...)` or `connect_to_agent(...)`."""
        import libcst as cst

        from acp_migrate.cst.walk import walk

        function = self.context.function
        if not isinstance(receiver, cst.Name) or function is None:
            return False
        name, context, found = receiver.value, self.context, False

        def makes_connection(value: cst.BaseExpression | None) -> bool:
            if isinstance(value, cst.Await):
                value = value.expression
            return isinstance(value, cst.Call) and (context.resolve(value.func) or "").rsplit(".", 1)[-1] in CONNECTORS

        class Evidence(cst.CSTVisitor):
            def visit_Param(self, node: cst.Param) -> None:
                nonlocal found
                if node.name.value == name and node.annotation is not None:
                    found = found or (context.resolve(node.annotation.annotation) or "") in CONNECTION_TYPES

            def visit_WithItem(self, node: cst.WithItem) -> None:
                nonlocal found
                target = node.asname.name if node.asname is not None else None
                names = [e.value for e in target.elements] if isinstance(target, cst.Tuple) else [target]
                bound = bool(names) and isinstance(names[0], cst.Name) and names[0].value == name
                found = found or (bound and makes_connection(node.item))

            def visit_Assign(self, node: cst.Assign) -> None:
                nonlocal found
                bound = any(isinstance(t.target, cst.Name) and t.target.value == name for t in node.targets)
                found = found or (bound and makes_connection(node.value))

        walk(function, Evidence())
        return found

    def _imports_sdk(self) -> bool:
        return any(q == "acp" or q.startswith("acp.") for q in self.context.imports.bindings.values())

    @staticmethod
    def _readings_differ(method: str, count: int, target: str) -> bool:
        """Whether `count` positional arguments mean different parameters on two
        releases from 0.7.0 up to `target`."""
        from acp_migrate.sdk import at_least

        readings = {
            names[:count] for first, names in SIGNATURES[method] if names is not None and at_least(target, first)
        }
        return len(readings) > 1

    @staticmethod
    def _changes(method: str) -> str:
        return "; ".join(f"{first}: {', '.join(names)}" for first, names in SIGNATURES[method] if names is not None)

    def _report(self, node: cst.Call, message: str) -> None:
        self.context.report(Report(node, self.code, message, fixable=False))


def _keyword(arg: cst.Arg, name: str) -> cst.Arg:
    import libcst as cst

    return arg.with_changes(
        keyword=cst.Name(name),
        equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")),
    )


def _positional_call(node: cst.CSTNode) -> bool:
    """Whether `node` holds a call of a reordered method with a positional argument."""
    import libcst as cst

    from acp_migrate.cst.walk import walk

    found = False

    class Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            nonlocal found
            named = isinstance(call.func, cst.Attribute) and call.func.attr.value in SIGNATURES
            found = found or (named and any(arg.keyword is None for arg in call.args))

    walk(node, Calls())
    return found
