"""ACP205 sdk-helpers-removed: a call of an `acp.helpers` function, which SDK 1.0 removes
with the module and its 23 top-level exports (`from acp import text_block` too): the
code fails at import on 1.0.

Each helper is a thin constructor of a schema model (as 0.12.1's `acp.helpers` reads), and
`fix` writes that constructor in its place, imported from `acp.schema`, keeping the
discriminator the helper set (`type="text"`, `session_update="agent_message_chunk"`):
0.12's models require it, 1.0's default it, so the result runs on both. Positional
arguments become the keywords the helper passed on; the defaults a model does not have
are written out (`PlanEntry`'s `priority="medium", status="pending"`);
`start_read_tool_call` and `start_edit_tool_call` become the `ToolCallStart` they built
(`kind`, `status`, a `ToolCallLocation` and `raw_input` from the path). A constructor
that no longer fits the project's line length where it stands is broken one keyword a
line with a trailing comma, as black and ruff break it: from the call on its line that it
is passed to (`conn.session_update(session_id, ...)`), then itself, then a constructor
inside it. Runs when the SDK target is 1.0 or newer and the code is written for an older
release.

A call through the module (`import acp`, then `acp.text_block(...)`) names the model
through it too (`acp.schema.TextContentBlock(...)`); `import acp.helpers` becomes
`import acp.schema`.

Left to a person (reported, nothing edited): a helper passed as a value
(`map(text_block, texts)`), a call with `*args` or `**kwargs`, a call through another
module's name (`from acp import helpers`), and `start_read_tool_call`
/ `start_edit_tool_call` with a path that is not a plain name or constant (it is read
twice): write the constructor as below.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from acp_migrate.rules.base import Example, Report, Rule

if TYPE_CHECKING:
    import libcst as cst


@dataclass(frozen=True)
class Helper:
    model: str  # the schema class it constructs
    discriminator: tuple[str, str] | None  # (field, value) it sets
    positional: tuple[str, ...]  # its positional parameters, in order: the model's fields
    defaults: tuple[tuple[str, str], ...] = ()  # fields it sets when not given (code)
    text: bool = False  # `update_*_text(text)`: the content is a text block
    path_tool: str | None = None  # `start_read/edit_tool_call`: the kind it sets

    @property
    def models(self) -> tuple[str, ...]:
        """The models a call of it becomes."""
        return (
            self.model,
            *(("TextContentBlock",) if self.text else ()),
            *(("ToolCallLocation",) if self.path_tool else ()),
        )


def _chunk(model: str, update: str, text: bool = False) -> Helper:
    return Helper(model, ("session_update", update), ("content",) if not text else ("text",), text=text)


HELPERS: dict[str, Helper] = {
    "text_block": Helper("TextContentBlock", ("type", "text"), ("text",)),
    "image_block": Helper("ImageContentBlock", ("type", "image"), ("data", "mime_type")),
    "audio_block": Helper("AudioContentBlock", ("type", "audio"), ("data", "mime_type")),
    "resource_link_block": Helper("ResourceContentBlock", ("type", "resource_link"), ("name", "uri")),
    "embedded_text_resource": Helper("TextResourceContents", None, ("uri", "text")),
    "embedded_blob_resource": Helper("BlobResourceContents", None, ("uri", "blob")),
    "resource_block": Helper("EmbeddedResourceContentBlock", ("type", "resource"), ("resource",)),
    "tool_content": Helper("ContentToolCallContent", ("type", "content"), ("content",)),
    "tool_diff_content": Helper("FileEditToolCallContent", ("type", "diff"), ("path", "new_text", "old_text")),
    "tool_terminal_ref": Helper("TerminalToolCallContent", ("type", "terminal"), ("terminal_id",)),
    "plan_entry": Helper("PlanEntry", None, ("content",), (("priority", "medium"), ("status", "pending"))),
    "update_plan": Helper("AgentPlanUpdate", ("session_update", "plan"), ("entries",)),
    "update_user_message": _chunk("UserMessageChunk", "user_message_chunk"),
    "update_user_message_text": _chunk("UserMessageChunk", "user_message_chunk", text=True),
    "update_agent_message": _chunk("AgentMessageChunk", "agent_message_chunk"),
    "update_agent_message_text": _chunk("AgentMessageChunk", "agent_message_chunk", text=True),
    "update_agent_thought": _chunk("AgentThoughtChunk", "agent_thought_chunk"),
    "update_agent_thought_text": _chunk("AgentThoughtChunk", "agent_thought_chunk", text=True),
    "update_available_commands": Helper(
        "AvailableCommandsUpdate", ("session_update", "available_commands_update"), ("available_commands",)
    ),
    "update_current_mode": Helper("CurrentModeUpdate", ("session_update", "current_mode_update"), ("current_mode_id",)),
    "session_notification": Helper("SessionNotification", None, ("session_id", "update")),
    "start_tool_call": Helper("ToolCallStart", ("session_update", "tool_call"), ("tool_call_id", "title")),
    "start_read_tool_call": Helper(
        "ToolCallStart", ("session_update", "tool_call"), ("tool_call_id", "title", "path"), path_tool="read"
    ),
    "start_edit_tool_call": Helper(
        "ToolCallStart", ("session_update", "tool_call"), ("tool_call_id", "title", "path", "content"), path_tool="edit"
    ),
    "update_tool_call": Helper("ToolCallProgress", ("session_update", "tool_call_update"), ("tool_call_id",)),
}
# What `acp` itself re-exports of them (0.12.1).
TOP_LEVEL = frozenset(HELPERS) - {"update_available_commands", "update_current_mode"}
QUALIFIED = {f"acp.helpers.{name}": name for name in HELPERS} | {f"acp.{name}": name for name in TOP_LEVEL}


class CannotRewrite(Exception):
    """Why a helper call is left to a person."""


class SdkHelpersRemoved(Rule):
    code = "ACP205"
    name = "sdk-helpers-removed"
    summary = "`acp.helpers` is gone in SDK 1.0: construct the schema model it wrapped."
    fixable = True
    sdk_release = "1.0.0"
    # Every file using a helper names one, or imports the module (`import acp.helpers`).
    triggers = (b"acp.helpers", *(name.encode() for name in sorted(HELPERS)))
    screen_words = frozenset({"acp.helpers", *HELPERS})
    examples = (
        Example(
            before=(
                "from acp import text_block, update_agent_message\n"
                "\n"
                "\n"
                "async def reply(conn, session_id, text):\n"
                "    update = update_agent_message(text_block(text))\n"
                "    await conn.session_update(session_id, update)\n"
            ),
            after=(
                "from acp.schema import AgentMessageChunk, TextContentBlock\n"
                "\n"
                "\n"
                "async def reply(conn, session_id, text):\n"
                "    update = AgentMessageChunk(\n"
                '        session_update="agent_message_chunk",\n'
                '        content=TextContentBlock(type="text", text=text),\n'
                "    )\n"
                "    await conn.session_update(session_id, update)\n"
            ),
        ),
        Example(
            before=(
                "from acp.helpers import start_read_tool_call\n"
                "\n"
                "\n"
                "def reading(call_id, path):\n"
                "    return start_read_tool_call(\n"
                '        call_id, "Read", path\n'
                "    )\n"
            ),
            after=(
                "from acp.schema import ToolCallLocation, ToolCallStart\n"
                "\n"
                "\n"
                "def reading(call_id, path):\n"
                "    return ToolCallStart(\n"
                '        session_update="tool_call",\n'
                "        tool_call_id=call_id,\n"
                '        title="Read",\n'
                '        kind="read",\n'
                '        status="pending",\n'
                "        locations=[ToolCallLocation(path=path)],\n"
                '        raw_input={"path": path},\n'
                "    )\n"
            ),
        ),
        Example(
            before=("from acp import text_block\n\n\ndef blocks(texts):\n    return list(map(text_block, texts))\n"),
            resolved=(
                "from acp.schema import TextContentBlock\n"
                "\n"
                "\n"
                "def blocks(texts):\n"
                '    return [TextContentBlock(type="text", text=text) for text in texts]\n'
            ),
        ),
        Example(
            before='def text_block(text):\n    return {"type": "text", "text": text}\n\n\nBLOCK = text_block("hi")\n',
            flagged=False,
        ),
    )

    def __init__(self, context) -> None:
        super().__init__(context)
        self._calls: set[cst.CSTNode] = set()  # funcs of helper calls handled, inner calls too

    def _helper(self, node: cst.BaseExpression) -> str | None:
        qualified = self.context.resolve(node)
        if qualified is None or qualified not in QUALIFIED:
            return None
        # A bare name no import binds resolves to itself: the module's own `text_block`.
        if "." not in qualified:
            return None
        return QUALIFIED[qualified]

    def visit_Call(self, node: cst.Call) -> None:
        if node.func in self._calls or self._helper(node.func) is None:
            return
        self._calls.update(_helper_funcs(node, self._helper))
        try:
            new = self._rewrite(node)
        except CannotRewrite as why:
            self.context.report(Report(node, self.code, f"{self._message(node)}: {why}", False))
            return
        with self.context.fix(Report(node, self.code, self._message(node), True)):
            self.context.replace(node, new, fit=True)

    def visit_Import(self, node: cst.Import) -> None:
        """`import acp.helpers` fails on 1.0; the calls through it name `acp.schema`'s models."""
        import libcst as cst

        from acp_migrate.cst.names import dotted_name

        for alias in node.names:
            if dotted_name(alias.name) != "acp.helpers":
                continue
            message = "`import acp.helpers`: the module is gone in SDK 1.0; `acp.schema` has the models"
            if alias.asname is not None:
                self.context.report(Report(alias, self.code, f"{message}: construct them by hand", False))
                continue
            with self.context.fix(Report(alias, self.code, message, True)):
                self.context.replace(alias.name, cst.Attribute(cst.Name("acp"), cst.Name("schema")))

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        """`from acp.helpers import ...` fails on 1.0: the models its helpers construct instead."""
        import libcst as cst

        from acp_migrate.cst.names import dotted_name

        module = dotted_name(node.module) if node.module is not None and not node.relative else None
        if module not in ("acp", "acp.helpers") or isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            if module == "acp" and dotted_name(alias.name) == "helpers":
                message = "`from acp import helpers`: the module is gone in SDK 1.0: construct `acp.schema`'s models"
                self.context.report(Report(alias, self.code, message, False))
        exported = HELPERS if module == "acp.helpers" else TOP_LEVEL
        helpers = [alias for alias in node.names if dotted_name(alias.name) in exported]
        if not helpers:
            return
        models = sorted({model for alias in helpers for model in HELPERS[dotted_name(alias.name)].models})
        bound = self.context.imports.bindings
        wanted = [model for model in models if bound.get(model) != f"acp.schema.{model}"]
        names = ", ".join(f"`{dotted_name(alias.name)}`" for alias in helpers)
        message = f"{names} from `{module}`: gone in SDK 1.0; `acp.schema` has the models they construct"
        local = {(alias.asname.name.value if alias.asname else dotted_name(alias.name)) for alias in helpers}
        if not self._all_rewritable(local):
            message += " (a use `fix` cannot rewrite stays: the import with it)"
            self.context.report(Report(node, self.code, message, False))
            return
        with self.context.fix(Report(node, self.code, message, True)):
            statement = self.context.statements[-1]
            if len(helpers) < len(node.names):
                for alias in helpers:
                    self.context.remove(alias)
            elif wanted and not _other_imports(self.context.module, statement):
                # The module's only import: it becomes the models' (an import block stays).
                names = [cst.ImportAlias(cst.Name(model)) for model in wanted]
                self.context.replace(node, cst.ImportFrom(cst.Attribute(cst.Name("acp"), cst.Name("schema")), names))
                return
            else:
                self.context.remove(statement)
            for model in wanted:  # into the module's `from acp.schema import (...)` if it has one
                self.context.add_import("acp.schema", model)

    def visit_Name(self, node: cst.Name) -> None:
        self._value(node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._value(node)

    def _value(self, node: cst.BaseExpression) -> None:
        import libcst as cst

        if isinstance(node, cst.Attribute) and node.value in self._calls:
            return
        if node in self._calls or any(isinstance(n, (cst.Import, cst.ImportFrom)) for n in self.context.lineage):
            return
        parent = self.context.parents.get(node)
        if isinstance(parent, cst.Attribute) and parent.value is node:
            return  # `acp.helpers` of `acp.helpers.text_block`: the whole is judged
        name = self._helper(node)
        if name is not None:
            message = (
                f"`{name}` from `acp.helpers` (gone in SDK 1.0) used as a value: construct `{HELPERS[name].model}`"
            )
            self.context.report(Report(node, self.code, message, False))

    def _all_rewritable(self, local: set[str]) -> bool:
        """Whether every mention of these imported names is a call `fix` rewrites."""
        import libcst as cst

        rule = self
        fine = True

        class Uses(cst.CSTVisitor):
            def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
                return False

            def visit_Call(self, node: cst.Call) -> None:
                nonlocal fine
                if isinstance(node.func, cst.Name) and node.func.value in local:
                    try:
                        rule._rewrite(node)
                    except CannotRewrite:
                        fine = False

            def visit_Name(self, node: cst.Name) -> None:
                nonlocal fine
                if node.value in local and node not in calls:
                    fine = False

        calls = {
            call.func
            for call in _calls_in(self.context.module)
            if isinstance(call.func, cst.Name) and call.func.value in local
        }
        self.context.module.visit(Uses())
        return fine

    def _message(self, node: cst.Call) -> str:
        name = self._helper(node.func)
        return f"`{name}(...)`: `acp.helpers` is gone in SDK 1.0; `{HELPERS[name].model}(...)` from `acp.schema`"

    def _rewrite(self, node: cst.Call) -> cst.Call:
        """The constructor call `node` stands for (nested helper calls too)."""
        import libcst as cst

        helpers, bindings = self._helper, self.context.imports.bindings

        class Inner(cst.CSTTransformer):
            def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
                name = helpers(original.func)
                return updated if name is None else _constructor(name, updated, _model_ref(original.func), quote)

        def _model_ref(func: cst.BaseExpression):
            """How the call names a model: as the import binds it, or through `acp` (`acp.schema.X`)."""
            if isinstance(func, cst.Name):
                return cst.Name
            root = func
            while isinstance(root, cst.Attribute):
                root = root.value
            if not isinstance(root, cst.Name) or bindings.get(root.value) != "acp":
                raise CannotRewrite("through a module other than `acp`: construct it by hand")
            return lambda model: cst.Attribute(cst.Attribute(cst.Name(root.value), cst.Name("schema")), cst.Name(model))

        quote = self.context.settings.style.quote
        return node.visit(Inner())


def _other_imports(module: cst.Module, statement: cst.BaseStatement) -> bool:
    import libcst as cst

    return any(
        other is not statement
        and isinstance(other, cst.SimpleStatementLine)
        and any(isinstance(small, (cst.Import, cst.ImportFrom)) for small in other.body)
        for other in module.body
    )


def _calls_in(module: cst.Module) -> list[cst.Call]:
    import libcst as cst

    found: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            found.append(call)

    module.visit(Calls())
    return found


def _helper_funcs(node: cst.Call, helper) -> list[cst.CSTNode]:
    import libcst as cst

    found: list[cst.CSTNode] = []

    class Funcs(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            if helper(call.func) is not None:
                found.append(call.func)

    node.visit(Funcs())
    return found


def _constructor(name: str, call: cst.Call, model: Callable[[str], cst.BaseExpression], quote: str) -> cst.Call:
    import libcst as cst

    from acp_migrate.rules.shared.generated import laid_out_call

    helper = HELPERS[name]
    if not call.args or any(arg.star for arg in call.args):
        raise CannotRewrite("a call with `*` or `**` arguments")
    tight = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))

    def string(value: str) -> cst.SimpleString:
        return cst.SimpleString(f"{quote}{value}{quote}")

    def keyword(field: str, value: cst.BaseExpression) -> cst.Arg:
        return cst.Arg(keyword=cst.Name(field), value=value, equal=tight)

    given: dict[str, cst.Arg] = {}
    positional = iter(helper.positional)
    for arg in call.args:
        field = arg.keyword.value if arg.keyword is not None else next(positional, None)
        if field is None:
            raise CannotRewrite(f"more positional arguments than `{name}` takes")
        given[field] = arg if arg.keyword is not None else arg.with_changes(keyword=cst.Name(field), equal=tight)
    # The keywords the helper set itself, after the caller's, in the helper's order.
    added = [keyword(field, string(value)) for field, value in helper.defaults if field not in given]
    missing = [field for field in helper.positional if field not in given and field != "old_text"]
    if missing:
        raise CannotRewrite(f"no `{missing[0]}` given")
    if helper.text:
        text = given.pop("text")
        block = cst.Call(model("TextContentBlock"), [keyword("type", string("text")), keyword("text", text.value)])
        given["content"] = text.with_changes(keyword=cst.Name("content"), value=block)
    if helper.path_tool is not None:
        path = given.pop("path").value
        if not isinstance(path, (cst.Name, cst.SimpleString, cst.Attribute)):
            raise CannotRewrite("its path is read twice: name it first")
        raw = [cst.DictElement(string("path"), path)]
        if "content" in given:
            raw.append(cst.DictElement(string("content"), given.pop("content").value))
        extra = given.pop("extra_options", None)
        if extra is not None:
            given["content"] = extra.with_changes(keyword=cst.Name("content"))
        added = [
            keyword("kind", string(helper.path_tool)),
            keyword("status", string("pending")),
            keyword("locations", cst.List([cst.Element(cst.Call(model("ToolCallLocation"), [keyword("path", path)]))])),
            keyword("raw_input", cst.Dict(raw)),
        ]
    args = list(given.values())
    if helper.discriminator is not None:
        args.insert(0, keyword(helper.discriminator[0], string(helper.discriminator[1])))
    args += added
    return laid_out_call(call, model(helper.model), args)
