"""ACP005 commands-not-advertised: a command list advertised at `initialize` that `fix`
cannot move into the session setup handlers.

Reported by `fix` in place of the ACP001/ACP002/ACP003 finding it could not fix:
`rules/rewire.py` cannot move the list safely (the value uses locals of
`initialize`, it is advertised only under a condition, the class has no setup handler
or nowhere to create or bind the advertiser, or the code is not an agent's
`initialize`, a method it calls, or a module constant it uses). Code that cannot be moved
stays where it was: the keyword, its value and the locals feeding it are kept, and a
`# acp-migrate: TODO` line goes above the statement (ACP007 keeps reporting it), so
the project runs as before and the person has everything needed to finish: advertise
the list per session (docs/runtime.md: `CommandAdvertiser.attach(..., always=...)`),
then delete the keyword and the TODO.

Resolving it, by the reason `fix` gave (docs/runtime.md, "API"):

1. The agent class holds one `CommandAdvertiser` per connection: create it in
   `__init__` (or as a dataclass field), and call `bind(conn)` in `on_connect`, or
   first thing in `initialize` from the attribute holding the connection (never in
   `__init__`: an SDK factory calls it before the connection can send).
2. Every session setup handler (`new_session`, `load_session`, `resume_session`,
   `fork_session`) returns `self.advertiser.attach(response, session_id,
   always=<the list>)`; load and resume pass the request's session id. A list built
   from locals of `initialize` is built by a method both can call; a list advertised
   only under a condition is passed under the same condition (`always=[]` otherwise).
   Lists the server already sends with `available_commands_update` stay: the shim
   merges the two.
3. Where the code is not an agent's `initialize` (a helper building the response, as
   below), the helper's callers stop passing the list, and the agent advertises it as
   in 2.
4. Delete the keyword, the locals only it used and the `# acp-migrate: TODO` line;
   `acp-migrate check` then reports nothing there (ACP001 and ACP007 went with them).
"""

from __future__ import annotations

import libcst as cst

from acp_migrate.cst.names import mentions
from acp_migrate.rules.base import Example, FileContext, Report, Rule, all_params
from acp_migrate.rules.rewire import CannotRewire, rewire


class CommandsNotAdvertised(Rule):
    code = "ACP005"
    name = "commands-not-advertised"
    summary = "A command list removed from initialize must be advertised per session."
    fixable = False
    examples = (
        Example(
            before=(
                "from acp.schema import InitializeResponse\n"
                "\n"
                "\n"
                "def initialize_result(commands):\n"
                "    return InitializeResponse.create(protocol_version=1, slash_commands=commands)\n"
            ),
            after=(
                "from acp.schema import InitializeResponse\n"
                "\n"
                "\n"
                "def initialize_result(commands):\n"
                "    # acp-migrate: TODO: advertise `commands` per session (acp-migrate rules ACP005)\n"
                "    return InitializeResponse.create(protocol_version=1, slash_commands=commands)\n"
            ),
            resolved=(
                "import uuid\n"
                "\n"
                "from acp.schema import InitializeResponse, LoadSessionResponse, NewSessionResponse\n"
                "\n"
                "from acp_migrate.runtime import CommandAdvertiser\n"
                "\n"
                "\n"
                "def initialize_result():\n"
                "    return InitializeResponse.create(protocol_version=1)\n"
                "\n"
                "\n"
                "class Agent:\n"
                "    def __init__(self, commands):\n"
                "        self.commands = commands\n"
                "        self.advertiser = CommandAdvertiser()  # one per connection\n"
                "\n"
                "    def on_connect(self, conn):\n"
                "        self.advertiser.bind(conn)\n"
                "\n"
                "    async def initialize(self, protocol_version, **kwargs):\n"
                "        return initialize_result()\n"
                "\n"
                "    async def new_session(self, cwd, **kwargs):\n"
                "        response = NewSessionResponse(session_id=uuid.uuid4().hex)\n"
                "        return self.advertiser.attach(response, always=self.commands)\n"
                "\n"
                "    async def load_session(self, cwd, session_id, **kwargs):\n"
                "        return self.advertiser.attach(LoadSessionResponse(), session_id, always=self.commands)\n"
            ),
        ),
    )


def _forwards_schema_parameter(context: FileContext, value: cst.BaseExpression) -> bool:
    """True for `slash_commands=slash_commands or []` inside an owned schema `create`."""
    owned = context.schema_method()
    if owned is None or owned[1].name.value != "create":
        return False
    legacy_params = {p.name.value for p in all_params(owned[1].params)} & {
        "slash_commands",
        "slashCommands",
    }
    names = set(mentions(value))
    return bool(names) and names <= legacy_params | {"list", "tuple", "None"}


TODO_MARK = "# acp-migrate: TODO"
TODO_WIDTH = 99  # a TODO line, indentation included, fits this


def remove_advertised(
    context: FileContext,
    anchor: cst.CSTNode,
    value: cst.BaseExpression,
    code: str,
    message: str,
    *,
    caller: bool = False,
) -> None:
    """Report `anchor` (a keyword or dict entry whose `value` advertised commands at
    initialize) under `code` and remove it, moving the commands into the agent's
    session setup handlers (`rules/rewire.py`) and the locals that only fed them.

    When they cannot be moved safely, nothing is removed: the code stays where it is
    with a TODO line above its statement, the report is not fixable, and its ACP005
    follow-up says why. A report that will be dropped (suppressed, disabled) does not
    rewire, so that a class is not taken for rewired by a rewire dropped with it.

    `caller`: `anchor` passes the field to a schema factory (`Report.caller`). Inside a
    schema the project owns, the keyword forwarding `create`'s own parameter goes with
    that parameter: it stays while the schema keeps the field.

    In a test file's tests, fixtures and helpers (`FileContext.test_state`) nothing is
    moved and no TODO is written: inside a test fix removes (ACP008) there is nothing to
    do; in a test about the field that fix leaves to a person, the code stays, reported
    and not fixable (the schema keeps the field for it); in other test code the value is
    simply dropped."""
    state = context.test_state()
    if state == "removed":
        return
    if state == "left":
        context.report(
            Report(
                anchor,
                code,
                f"{message}; left as it is: the test around it asserts the field and fix leaves it "
                "to a person (acp-migrate rules ACP008)",
                fixable=False,
                caller=caller,
            )
        )
        return
    if state == "kept":
        context.drop_value(value)
        context.remove(anchor)
        context.report(Report(anchor, code, message, fixable=True, caller=caller))
        return
    if _forwards_schema_parameter(context, value):
        if not context.schema_kept_by():
            context.drop_value(value)
            context.remove(anchor)
            context.report(Report(anchor, code, message, fixable=True))
        return
    if context.dropped(anchor, code) or context.is_provably_empty(value):
        context.drop_value(value)
        context.remove(anchor)
        context.report(Report(anchor, code, message, fixable=True, caller=caller))
        return
    origin, feeding = context.value_origin(value)
    try:
        rewire(context, origin)
    except CannotRewire as why:
        reason = str(why)
    else:
        for statement in feeding:
            context.remove(statement)
        context.remove(anchor)
        context.report(Report(anchor, code, message, fixable=True, caller=caller))
        return
    keep_advertised(context, anchor, context.code(value), code, message, reason, caller=caller)


def keep_advertised(
    context: FileContext,
    anchor: cst.CSTNode,
    source: str,
    code: str,
    message: str,
    reason: str,
    *,
    caller: bool = False,
) -> None:
    """The fallback, for a legacy value `fix` cannot take out safely (`source`: the
    commands, as code; `reason`: why): the code stays, a TODO line goes above its
    statement, the report is not fixable and its ACP005 follow-up says why."""
    if context.test_state() == "removed":
        return
    if not context.dropped(anchor, CommandsNotAdvertised.code):  # a silenced follow-up wants no TODO either
        _add_todo(context, source)
    followup = Report(
        anchor,
        CommandsNotAdvertised.code,
        f"commands from `{source}` are still advertised at initialize: `fix` cannot move them into the "
        f"session setup handlers: {reason}; advertise them per session (acp-migrate rules ACP005)",
        fixable=False,
    )
    context.report(
        Report(anchor, code, f"{message}; `fix` cannot move it: {reason}", fixable=False, followups=[followup], caller=caller)
    )


def _add_todo(context: FileContext, source: str) -> None:
    """A TODO line above the statement (once: a second run finds it there); never in a
    test file's tests, fixtures or helpers (ACP008: a test is removed or left, whole)."""
    if context.test_state() is not None:
        return
    statement = context.statements[-1]
    width = sum(
        len((node.indent if node.indent is not None else context.module.default_indent).expandtabs(4))
        for node in context.lineage
        if isinstance(node, cst.IndentedBlock)
    )

    def text(shown: str) -> str:
        return f"{TODO_MARK}: advertise `{shown}` per session (acp-migrate rules ACP005)"

    room = TODO_WIDTH - width - len(text(""))
    shown = source if len(source) <= room else (source[: room - 1] + "…" if room > 8 else "the list")
    comment = text(shown)
    if any(line.comment is not None and line.comment.value == comment for line in statement.leading_lines):
        return
    context.add_comment(statement, comment)
