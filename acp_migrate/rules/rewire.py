"""Move a command list removed from `initialize` into the agent's session setup handlers.

Not a rule: the fix that ACP001/ACP002 removals call (via ACP005) so that no command
a server advertised is lost. For the agent class whose `initialize` advertised the
list `E`, it edits the class to use the runtime shim's `CommandAdvertiser`:

- creates it in `__init__` (or where the connection arrives) and binds it to the
  connection in `on_connect(conn)` (binding also registers its stream observer);
- makes every setup handler (`new_session`, `load_session`, `resume_session`,
  `fork_session`, configurable) return `self.command_advertiser.attach(response,
  commands=E)`, so each session gets the list, in order, after its setup response
  (a handler that already sends its session's list keeps that list instead: in the
  old protocol too it replaced the initialize list);
- turns `conn.session_update(sid, AvailableCommandsUpdate(available_commands=X))`
  calls of the class (awaited or wrapped in `create_task`) into
  `self.command_advertiser.publish(sid, X)`, which de-duplicates and never overtakes
  a setup response;
- imports `CommandAdvertiser` from the configured runtime module.

When it cannot do that safely, it says why; ACP005 then leaves a TODO comment.
"""

from __future__ import annotations

import libcst as cst

from acp_migrate.cst.names import MentionCounter, last_part
from acp_migrate.cst.walk import walk
from acp_migrate.rules.base import Edits, FileContext, all_params

ADVERTISER = "command_advertiser"
ADVERTISER_CLASS = "CommandAdvertiser"
CONNECTION_HOOK = "on_connect"
MAX_INLINE_CALL = 72  # longer generated calls get one argument per line

_NO_SPACE = cst.SimpleWhitespace("")
_KEYWORD_EQUAL = cst.AssignEqual(whitespace_before=_NO_SPACE, whitespace_after=_NO_SPACE)


class CannotRewire(Exception):
    """Why the list cannot be moved; the text completes "the list could not be moved: ..."."""


def rewire(context: FileContext, origin: cst.BaseExpression) -> None:
    """Move `origin` (the removed list's expression) into the class's setup handlers,
    or raise CannotRewire."""
    initialize = context.function
    if initialize is None or initialize.name.value != "initialize" or len(context.scopes) < 2:
        raise CannotRewire("it is not in an agent class's `initialize` method")
    agent = context.scopes[-2]
    if not isinstance(agent, cst.ClassDef) or not isinstance(agent.body, cst.IndentedBlock):
        raise CannotRewire("it is not in an agent class's `initialize` method")
    _check_movable(origin, initialize)

    done = context.rewired.get(agent)
    origin_code = context.code(origin, limit=10_000)
    if done is not None:
        if done != origin_code:
            raise CannotRewire(f"class `{agent.name.value}` already advertises `{context.code(origin)}`")
        return

    methods = {
        statement.name.value: statement
        for statement in agent.body.body
        if isinstance(statement, cst.FunctionDef)
    }
    handlers = context.settings.setup_handlers
    kinds = {name: kind for kind in ("new", "load", "resume", "fork") for name in getattr(handlers, kind)}
    setup = [(methods[name], kind) for name, kind in kinds.items() if name in methods]
    if not setup:
        raise CannotRewire(f"class `{agent.name.value}` has no session setup handler")

    inherited = any(
        isinstance(base.value, cst.Name) and base.value.value in {c.name.value for c in context.rewired}
        for base in agent.bases
    )
    # A subclass of a class rewired above already has the advertiser, bound once.
    wiring = [] if inherited else _wiring_edits(agent.name.value, methods) + _import_edits(context)
    handler_edits = [_handler_edits(context, method, kind, origin) for method, kind in setup]

    # Nothing is registered before here: a CannotRewire above leaves the tree alone.
    context.rewired[agent] = origin_code
    for statement, new in wiring:
        context.insert_after(statement, new)
    for edits in handler_edits:
        for node, replacement in edits.replaced:
            context.replace(node, replacement)
        for statement, new in edits.appended:
            context.insert_after(statement, new)
    # The class's later methods are not visited yet: convert its updates once it is.
    owner = context.pending_edits()
    context.at_class_end(agent, lambda: _publish_existing_updates(context, agent, owner))
    context.imports.bindings.setdefault(ADVERTISER_CLASS, f"{context.settings.runtime_import}.{ADVERTISER_CLASS}")


# -- checks ---------------------------------------------------------------------------


def _check_movable(origin: cst.BaseExpression, initialize: cst.FunctionDef) -> None:
    """The expression may only use `self` and module-level names."""
    params = [p.name.value for p in all_params(initialize.params)]
    local_names = set(params[1:]) | _assigned_names(initialize)
    counter = MentionCounter()
    walk(origin, counter)
    used = sorted(set(counter.counts) & local_names)
    if used:
        raise CannotRewire(f"it uses `{used[0]}`, which only exists inside `initialize`")


def _assigned_names(function: cst.FunctionDef) -> set[str]:
    names: set[str] = set()

    class Stores(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            pass

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            names.update(_target_names(node.target))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            names.update(_target_names(node.target))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            names.update(_target_names(node.target))

        def visit_For(self, node: cst.For) -> None:
            names.update(_target_names(node.target))

        def visit_AsName(self, node: cst.AsName) -> None:
            names.update(_target_names(node.name))

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            names.update(_target_names(node.target))

    walk(function.body, Stores())
    return names


def _target_names(target: cst.CSTNode) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [name for element in target.elements for name in _target_names(element.value)]
    if isinstance(target, cst.StarredElement):
        return _target_names(target.value)
    return []


# -- wiring: create and bind the advertiser ---------------------------------------------


def _statement(code: str) -> cst.BaseStatement:
    return cst.parse_statement(code)


def _last_statement(method: cst.FunctionDef, class_name: str) -> cst.BaseStatement:
    body = method.body
    if not isinstance(body, cst.IndentedBlock) or isinstance(body.body[-1], cst.SimpleStatementLine) and any(
        isinstance(small, cst.Return) for small in body.body[-1].body
    ):
        raise CannotRewire(f"`{class_name}.{method.name.value}` ends in a way the codemod cannot extend")
    return body.body[-1]


def _connection_param(method: cst.FunctionDef) -> str | None:
    params = [p.name.value for p in all_params(method.params)]
    return params[1] if len(params) >= 2 else None


def _wiring_edits(class_name: str, methods: dict[str, cst.FunctionDef]):
    create = f"self.{ADVERTISER} = {ADVERTISER_CLASS}()"
    on_connect = methods.get(CONNECTION_HOOK)
    init = methods.get("__init__")
    if on_connect is not None:
        conn = _connection_param(on_connect)
        if conn is None:
            raise CannotRewire(f"`{class_name}.{CONNECTION_HOOK}` takes no connection to bind to")
        if init is None:
            return [
                (_last_statement(on_connect, class_name), [_statement(f"self.{ADVERTISER} = {ADVERTISER_CLASS}().bind({conn})\n")])
            ]
        return [
            (_last_statement(init, class_name), [_statement(create + "\n")]),
            (_last_statement(on_connect, class_name), [_statement(f"self.{ADVERTISER}.bind({conn})\n")]),
        ]
    conn = _connection_param(init) if init is not None else None
    if init is not None and conn is not None and conn in {"conn", "connection", "client"}:
        return [
            (_last_statement(init, class_name), [_statement(f"self.{ADVERTISER} = {ADVERTISER_CLASS}().bind({conn})\n")])
        ]
    raise CannotRewire(
        f"class `{class_name}` has no `{CONNECTION_HOOK}(conn)` to bind a {ADVERTISER_CLASS} to the connection"
    )


# -- setup handlers: return attach(...) ------------------------------------------------


class _HandlerEdits:
    def __init__(self) -> None:
        self.replaced: list[tuple[cst.CSTNode, cst.CSTNode]] = []
        self.appended: list[tuple[cst.BaseStatement, list[cst.BaseStatement]]] = []


class _Returns(cst.CSTVisitor):
    """Return statements and calls of one function, not of functions nested in it."""

    def __init__(self) -> None:
        self.returns: list[cst.Return] = []
        self.calls: list[cst.Call] = []

    def visit_Return(self, node: cst.Return) -> None:
        self.returns.append(node)

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False


def _contains_await(node: cst.CSTNode) -> bool:
    found = False

    class Awaits(cst.CSTVisitor):
        def visit_Await(self, node: cst.Await) -> None:
            nonlocal found
            found = True

    walk(node, Awaits())
    return found


def _handler_edits(context: FileContext, method: cst.FunctionDef, kind: str, origin: cst.BaseExpression) -> _HandlerEdits:
    edits = _HandlerEdits()
    if method.asynchronous is None and _contains_await(origin):
        raise CannotRewire(f"it awaits, and `{method.name.value}` is not async")
    session_id = None
    if kind in {"load", "resume"}:
        # Their responses carry no session id: it is the request's.
        session_id = "session_id" if "session_id" in {p.name.value for p in all_params(method.params)} else None
        if session_id is None:
            raise CannotRewire(f"`{method.name.value}` has no `session_id` parameter")
    finder = _Returns()
    walk(method.body, finder)
    if any(commands_update(context, call) for call in finder.calls):
        # The handler already sends this session's list, which replaced the initialize
        # list in the old protocol too: keep that list (now published in order) alone.
        return edits
    indent = context.module.default_indent
    for statement in finder.returns:
        value = statement.value if statement.value is not None else cst.Name("None")
        call = attach_call(value, session_id=session_id, commands=origin, indent=indent, module=context.module)
        if statement.value is not None:
            edits.replaced.append((statement.value, call))
        else:
            edits.replaced.append((statement, statement.with_changes(value=call, whitespace_after_return=cst.SimpleWhitespace(" "))))
    body = method.body
    falls_off_end = isinstance(body, cst.IndentedBlock) and not (
        isinstance(body.body[-1], cst.SimpleStatementLine)
        and isinstance(body.body[-1].body[-1], (cst.Return, cst.Raise))
    )
    if kind in {"load", "resume"} and falls_off_end:
        call = attach_call(cst.Name("None"), session_id=session_id, commands=origin, indent=indent, module=context.module)
        edits.appended.append((body.body[-1], [cst.SimpleStatementLine([cst.Return(call)])]))
    if not finder.returns and not edits.appended:
        raise CannotRewire(f"`{method.name.value}` returns no response to attach the commands to")
    return edits


def _arg(value: cst.BaseExpression, keyword: str | None = None) -> cst.Arg:
    if keyword is None:
        return cst.Arg(value)
    return cst.Arg(value, keyword=cst.Name(keyword), equal=_KEYWORD_EQUAL)


def _call(method: str, args: list[cst.Arg], *, indent: str, module: cst.Module) -> cst.Call:
    func = cst.parse_expression(f"self.{ADVERTISER}.{method}")
    inline = cst.Call(
        func,
        [arg.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for arg in args[:-1]] + [args[-1]],
    )
    code = module.code_for_node(inline)
    if "\n" in code or len(code) <= MAX_INLINE_CALL:
        return inline
    # One argument per line, with a trailing comma, as formatters write it.
    def line_break(extra: str) -> cst.ParenthesizedWhitespace:
        return cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(extra))

    exploded = [arg.with_changes(comma=cst.Comma(whitespace_after=line_break(indent))) for arg in args[:-1]]
    exploded.append(args[-1].with_changes(comma=cst.Comma(whitespace_after=line_break(""))))
    return cst.Call(func, exploded, whitespace_before_args=line_break(indent))


def attach_call(
    value: cst.BaseExpression, *, session_id: str | None, commands: cst.BaseExpression, indent: str, module: cst.Module
) -> cst.Call:
    args = [_arg(value)]
    if session_id is not None:
        args.append(_arg(cst.Name(session_id), "session_id"))
    args.append(_arg(commands, "commands"))
    return _call("attach", args, indent=indent, module=module)


# -- existing notifications: publish(...) ----------------------------------------------


def commands_update(context: FileContext, call: cst.Call) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """(session id, commands) of `conn.session_update(sid, <commands update>)`, else None."""
    if not isinstance(call.func, cst.Attribute) or call.func.attr.value != "session_update":
        return None
    positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
    keywords = {arg.keyword.value: arg.value for arg in call.args if arg.keyword is not None}
    session = keywords.get("session_id", positional[0] if positional else None)
    update = keywords.get("update", positional[1] if len(positional) > 1 else None)
    if session is None or not isinstance(update, cst.Call):
        return None
    kind = last_part(context.resolve(update.func))
    update_keywords = {arg.keyword.value: arg.value for arg in update.args if arg.keyword is not None}
    if kind == "AvailableCommandsUpdate":
        commands = update_keywords.get("available_commands", update_keywords.get("availableCommands"))
    elif kind == "update_available_commands":
        commands = update.args[0].value if update.args and update.args[0].keyword is None else update_keywords.get(
            "available_commands"
        )
    else:
        return None
    return (session, commands) if commands is not None else None


def _publish_existing_updates(context: FileContext, agent: cst.ClassDef, owner: Edits) -> None:
    """Turn the class's commands updates into publishes, as part of the fix `owner` holds."""
    for call in context.calls_in_class.get(agent, ()):
        found = commands_update(context, call)
        if found is None:
            continue
        session, commands = found
        owner.replaced[call] = _call(
            "publish",
            [_arg(session), _arg(commands)],
            indent=context.module.default_indent,
            module=context.module,
        )


# -- import ---------------------------------------------------------------------------


def _import_edits(context: FileContext) -> list[tuple[cst.BaseStatement, list[cst.BaseStatement]]]:
    """Add `from <runtime> import CommandAdvertiser` after the module's last import
    before its first definition (none when already imported)."""
    if ADVERTISER_CLASS in context.imports.bindings:
        return []
    anchor = None
    for statement in context.module.body:
        if isinstance(statement, (cst.ClassDef, cst.FunctionDef)):
            break
        if isinstance(statement, cst.SimpleStatementLine) and isinstance(
            statement.body[0], (cst.Import, cst.ImportFrom)
        ):
            anchor = statement
    if anchor is None:
        raise CannotRewire("the module has no import section to add the runtime import to")
    runtime = context.settings.runtime_import
    return [(anchor, [_statement(f"from {runtime} import {ADVERTISER_CLASS}\n")])]
