"""ACP221 sdk-handlers: an agent handler of SDK 0.6 taking one request model
(`newSession(self, params)`, `params.sessionId`); from 0.7.0 the SDK calls
`new_session(cwd=..., mcp_servers=...)` with keyword arguments.

On a class that subclasses `acp.Agent` the break is silent: the class inherits the
protocol's stub `new_session`, which the router calls instead of `newSession`, so
`session/new` answers `null` and the client has no session (also `loadSession`,
`setSessionMode`, `setSessionModel`); a handler whose parameter is not named `params`
answers -32603 instead. Elsewhere the SDK still finds the camelCase name up to 1.0,
with a deprecation warning.

`fix` renames the handler (`newSession` -> `new_session`, `extMethod` -> `ext_method`),
gives it the target's keyword signature (every field arrives by keyword: the
parameters without a default and those the handler reads are named, in the target's
order, the rest land in `**kwargs`: `new_session(self, cwd, **kwargs)`), and reads
each field by its parameter: `params.sessionId` -> `session_id`. `initialize`, `prompt`, `authenticate` and `cancel` kept their names;
they move when their parameter is a request model (annotated so, or only ever read
as `params.<field>`).

Reported for a person, the handler left as it is: a request model that escapes its
handler (passed on, stored, returned, `params.model_dump()`, `params.field_meta`: a
person decides what the handler hands on now), a field the target does not pass, a
local already named as a parameter the handler gets, and `setSessionModel` when the
target (0.11.0 on) has no `set_session_model`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acp_migrate.rules.base import Example, Report, Rule
from acp_migrate.rules.shared.sdk_handlers import EXTENSIONS, HANDLERS, SAME_NAME

if TYPE_CHECKING:
    import libcst as cst

# Handlers only 0.6 spells so: a file holding none has no old agent.
CAMEL_HANDLERS = frozenset(old for old in (*HANDLERS, *EXTENSIONS) if old not in SAME_NAME)
AGENT_BASES = frozenset({"acp.Agent", "acp.interfaces.Agent"})


class RequestObjectHandler(Rule):
    code = "ACP221"
    name = "sdk-handlers"
    summary = "SDK 0.7 handlers take keywords."
    fixable = True
    sdk_release = "0.7.0"
    triggers = tuple(name.encode() for name in sorted(CAMEL_HANDLERS))
    screen_words = CAMEL_HANDLERS
    examples = (
        Example(
            before=(
                "from uuid import uuid4\n"
                "\n"
                "from acp import Agent, NewSessionRequest, NewSessionResponse\n"
                "\n"
                "\n"
                "class EchoAgent(Agent):\n"
                "    async def newSession(self, params: NewSessionRequest) -> NewSessionResponse:\n"
                "        self.cwd = params.cwd\n"
                "        return NewSessionResponse(sessionId=uuid4().hex)\n"
            ),
            after=(
                "from uuid import uuid4\n"
                "\n"
                "from acp import Agent, NewSessionResponse\n"
                "\n"
                "\n"
                "class EchoAgent(Agent):\n"
                "    async def new_session(self, cwd, **kwargs) -> NewSessionResponse:\n"
                "        self.cwd = cwd\n"
                "        return NewSessionResponse(sessionId=uuid4().hex)\n"
            ),
            target_sdk="1.0.0",
        ),
        Example(
            before=(
                "from acp import Agent\n"
                "\n"
                "\n"
                "class EchoAgent(Agent):\n"
                "    async def newSession(self, params):\n"
                "        return await self.sessions.create(params)\n"
            ),
            resolved=(
                "from acp import Agent\n"
                "\n"
                "\n"
                "class EchoAgent(Agent):\n"
                "    async def new_session(self, cwd, mcp_servers=None, **kwargs):\n"
                "        return await self.sessions.create(cwd=cwd, mcp_servers=mcp_servers)\n"
            ),
            target_sdk="1.0.0",
        ),
    )

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        import libcst as cst

        agent_base = any(self.context.resolve(base.value) in AGENT_BASES for base in node.bases)
        methods = (
            [s for s in node.body.body if isinstance(s, cst.FunctionDef)]
            if isinstance(node.body, cst.IndentedBlock)
            else []
        )
        if not agent_base and not any(m.name.value in CAMEL_HANDLERS for m in methods):
            return
        for method in methods:
            old = method.name.value
            if old in EXTENSIONS:
                self._rename(method, EXTENSIONS[old], agent_base)
            elif old in HANDLERS:
                self._handler(method, agent_base)

    def _rename(self, method: cst.FunctionDef, new: str, agent_base: bool) -> None:
        import libcst as cst

        report = Report(method, self.code, self._message(method, new, agent_base), fixable=True)
        with self.context.fix(report):
            self.context.replace(method.name, cst.Name(new))

    def _handler(self, method: cst.FunctionDef, agent_base: bool) -> None:
        import libcst as cst

        from acp_migrate.rules.shared.sdk_handlers import signature, snake

        old = method.name.value
        new, fields = HANDLERS[old]
        parameter = _single_parameter(method)
        if parameter is None:
            return  # not one request model: the keyword form already, or not a handler
        reads, escapes = _uses(method, parameter.name.value)
        read_fields = {attr for attr, _ in reads}
        keyword_form = bool(escapes) or not read_fields or not read_fields <= set(fields)
        if old in SAME_NAME and not self._is_request_model(parameter) and keyword_form:
            return  # `cancel(self, session_id)`: the keyword form already
        target = self.context.settings.sdk.version if self.context.settings.sdk else None
        parameters = signature(new, target) if target else None
        message = self._message(method, new, agent_base)
        if parameters is None:
            self._left(method, f"{message}; SDK {target} has no `{new}`: decide what replaces it")
            return
        names = [p.split("=")[0] for p in parameters.split(", ")]
        if escapes:
            self._left(
                method,
                f"{message}; the request model escapes the handler ({escapes[0]}): "
                "decide what it hands on from its keyword arguments",
            )
            return
        unknown = sorted(attr for attr in read_fields if snake(attr) not in names)
        if unknown:
            self._left(
                method, f"{message}; SDK {target} passes no {', '.join(unknown)} by name: decide where it comes from"
            )
            return
        clashes = sorted(set(names) & _bare_names(method, parameter.name.value))
        if clashes:
            self._left(method, f"{message}; the handler already has a local {', '.join(clashes)}: rename it first")
            return
        # The target's parameters without a default, and those the body reads; the
        # rest arrive in `**kwargs`, on every release from 0.7.0.
        used = {snake(attr) for attr in read_fields}
        kept = [p for p, name in zip(parameters.split(", "), names, strict=True) if "=" not in p or name in used]
        self_name = method.params.params[0].name.value
        new_params = cst.parse_statement(f"def f({', '.join([self_name, *kept, '**kwargs'])}): pass\n").params
        report = Report(method, self.code, message, fixable=True)
        with self.context.fix(report):
            self.context.replace(method.name, cst.Name(new))
            self.context.replace(method.params, new_params)
            for attr, node in reads:
                self.context.replace(node, cst.Name(snake(attr)))

    def _is_request_model(self, parameter: cst.Param) -> bool:
        if parameter.annotation is None:
            return False
        qualified = self.context.resolve(parameter.annotation.annotation) or ""
        return qualified.startswith("acp.") and qualified.endswith(("Request", "Notification"))

    def _message(self, method: cst.FunctionDef, new: str, agent_base: bool) -> str:
        old = method.name.value
        shown = f"`{old}({', '.join(p.name.value for p in method.params.params)})`"
        if agent_base and old != new and old not in EXTENSIONS:
            return f"{shown}: from SDK 0.7 the router calls the inherited `acp.Agent.{new}` stub instead, silently"
        return f"{shown}: from SDK 0.7 handlers are `{new}` taking keyword arguments"

    def _left(self, method: cst.FunctionDef, message: str) -> None:
        self.context.report(Report(method, self.code, message, fixable=False))


def _single_parameter(method: cst.FunctionDef) -> cst.Param | None:
    import libcst as cst

    params = method.params
    if params.posonly_params or params.kwonly_params or params.star_kwarg or isinstance(params.star_arg, cst.Param):
        return None
    if len(params.params) != 2 or params.params[1].default is not None:
        return None
    return params.params[1]


def _uses(method: cst.FunctionDef, name: str) -> tuple[list[tuple[str, cst.Attribute]], list[str]]:
    """The reads `name.<attr>` in the method's body, and how else it is used (as code)."""
    import libcst as cst

    from acp_migrate.cst.walk import walk

    reads: list[tuple[str, cst.Attribute]] = []
    escapes: list[str] = []
    module = cst.Module([])

    class Uses(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> bool:
            if isinstance(node.value, cst.Name) and node.value.value == name:
                if node.attr.value in ("field_meta", "model_dump", "model_dump_json", "model_copy"):
                    escapes.append(f"`{module.code_for_node(node)}`")
                else:
                    reads.append((node.attr.value, node))
                return False
            return True

        def visit_Name(self, node: cst.Name) -> None:
            if node.value == name:
                escapes.append(f"`{name}` itself")

    walk(method.body, Uses())
    return reads, escapes


def _bare_names(method: cst.FunctionDef, parameter: str) -> set[str]:
    """Every bare name the body mentions (locals, globals, attributes' roots)."""
    from acp_migrate.cst.names import mentions

    return {name for name in mentions(method.body) if name != parameter}
