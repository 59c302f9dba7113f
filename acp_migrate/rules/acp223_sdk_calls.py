"""ACP223 sdk-calls: a connection method of SDK 0.6 called with one
request model (`await conn.sessionUpdate(SessionNotification(sessionId=sid,
update=chunk))`); from 0.7 the method is `session_update(session_id=..., update=...)`,
one keyword argument per field.

Up to 1.0 the SDK still accepts the camelCase call with a warning; 1.0's own code and
every example since 0.7 use the keyword form, and the request model's camelCase fields
are a 0.6 spelling.

`fix` rewrites a call whose one argument builds the request model in place, with
keyword arguments in 0.6's spelling (`sessionId=`): the method's 0.7 name, each field by its 0.7 name (`sessionId=` ->
`session_id=`). The same on the agent's connection (`requestPermission`,
`readTextFile`, `writeTextFile`, `createTerminal`, the terminal methods) and on the
client's (`newSession`, `loadSession`, `setSessionMode`, `setSessionModel`, and the
methods that kept their name, when their argument builds their own request model:
`conn.prompt(PromptRequest(sessionId=sid, prompt=blocks))` ->
`conn.prompt(session_id=sid, prompt=blocks)`, `initialize`, `authenticate`, `cancel`).

The same where 0.6's helper builds the model, as the SDK's own examples up to 0.6.3 do
(`conn.sessionUpdate(session_notification(sid, chunk))`), its positional arguments
named by the helper's parameters: the `SessionNotification(session_id=...)` ACP205
makes of the helper on 1.0 would leave the camelCase call, which warns.

Reported for a person, the call left as it is: a request model with `field_meta`
(from 0.7 its keys are keyword arguments of their own), positional arguments or
`**kwargs`, or a field the target's method does not take. A request model built
earlier and passed by name, or built with 0.7's field names, is left alone: it still
runs up to 1.0.

A call of an agent's or a client's own handler (on `self`, `super()`, an instance of
the project's class) is ACP221's, which renames the handler: no connection keeps its
old name there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acp_migrate.rules.base import Example, Report, Rule
from acp_migrate.rules.shared.sdk_signatures import CAMEL_METHODS, UNCHANGED

if TYPE_CHECKING:
    import libcst as cst

# The methods 0.7 kept the name of -> the request model a 0.6 call builds for them.
KEPT_NAMES = {
    "initialize": "InitializeRequest",
    "authenticate": "AuthenticateRequest",
    "prompt": "PromptRequest",
    "cancel": "CancelNotification",
}
# 0.6's one helper building a request model (`acp.helpers`, exported by `acp` too): it
# takes the fields of `session_update`, in order.
_NOTIFICATION_HELPER = ("acp.session_notification", "acp.helpers.session_notification")


class SdkRequestObjectCall(Rule):
    code = "ACP223"
    name = "sdk-calls"
    summary = "SDK 0.7 calls: keywords."
    fixable = True
    sdk_release = "0.7.0"
    # A kept name (`prompt`) is everywhere; its request model is not.
    triggers = tuple(name.encode() for name in sorted({*CAMEL_METHODS, *KEPT_NAMES.values()}))
    screen_words = frozenset({*CAMEL_METHODS, *KEPT_NAMES.values()})
    examples = (
        Example(
            before=(
                "from acp import SessionNotification\n"
                "\n"
                "\n"
                "async def say(conn, sid, chunk):\n"
                "    await conn.sessionUpdate(SessionNotification(sessionId=sid, update=chunk))\n"
            ),
            after=("async def say(conn, sid, chunk):\n    await conn.session_update(session_id=sid, update=chunk)\n"),
            target_sdk="1.0.0",
        ),
        Example(
            before=(
                "from acp import SessionNotification\n"
                "\n"
                "\n"
                "async def say(conn, sid, chunk):\n"
                "    await conn.sessionUpdate(SessionNotification(sessionId=sid, update=chunk, field_meta={'a': 1}))\n"
            ),
            resolved=(
                "async def say(conn, sid, chunk):\n    await conn.session_update(session_id=sid, update=chunk, a=1)\n"
            ),
            target_sdk="1.0.0",
        ),
        Example(
            before=(
                "from acp import session_notification\n"
                "\n"
                "\n"
                "async def say(conn, sid, chunk):\n"
                "    await conn.sessionUpdate(session_notification(sid, update=chunk))\n"
            ),
            after=("async def say(conn, sid, chunk):\n    await conn.session_update(session_id=sid, update=chunk)\n"),
            target_sdk="0.12.1",
        ),
    )

    def leave_Call(self, node: cst.Call) -> None:
        # On leaving: the rules of its argument have spoken (ACP205's model for a helper).
        import libcst as cst

        from acp_migrate.rules.shared.request_calls import keyword_arguments, renamed_call
        from acp_migrate.rules.shared.sdk_handlers import snake
        from acp_migrate.rules.shared.sdk_signatures import parameters

        func = node.func
        if not isinstance(func, cst.Attribute) or len(node.args) != 1:
            return
        called = func.attr.value
        if called not in CAMEL_METHODS and called not in KEPT_NAMES:
            return
        if isinstance(func.value, cst.Name) and func.value.value in ("self", "cls"):
            return
        model = node.args[0].value
        if node.args[0].keyword is not None or not isinstance(model, cst.Call):
            return
        positional = self._request_model(model.func, KEPT_NAMES.get(called))
        if positional is None:
            return
        helper = bool(positional)
        if not helper and not any(
            arg.keyword is not None and snake(arg.keyword.value) != arg.keyword.value for arg in model.args
        ):
            return  # no 0.6 spelling: written from 0.7 on (`SessionNotification(session_id=...)`), it still runs
        method = CAMEL_METHODS.get(called, called)
        shown = f"`{self.context.code(node, 60)}`"
        message = f"{shown}: from SDK 0.7 `{method}` takes one keyword argument per field"
        sdk = self.context.settings.sdk
        taken = parameters(method, sdk.version) if sdk is not None else None
        if taken is None:
            self._left(node, f"{message}; SDK {sdk.version if sdk else '?'} has no `{method}`: decide what replaces it")
            return
        # A helper's call as the fix writes it: the model ACP205 makes of it on 1.0, by keyword.
        rewritten = next((r.edits.replaced[model] for r in self.context.reports if model in r.edits.replaced), None)
        built = rewritten if helper and isinstance(rewritten, cst.Call) else model
        keywords = keyword_arguments(built, positional, taken, sdk.version)
        if isinstance(keywords, str):
            self._left(node, f"{message}; {keywords}")
            return
        report = Report(node, self.code, message, fixable=True)
        with self.context.fix(report):
            self.context.replace(node, renamed_call(node, func, method, keywords))

    def _request_model(self, func: cst.BaseExpression, named: str | None) -> tuple[str, ...] | None:
        """The positional fields of what `func(...)` builds a request model with: () for
        the model (its fields by keyword; the class `named`, where given), the helper's
        parameters; None: no model."""
        qualified = self.context.resolve(func) or ""
        if named is not None:
            return () if qualified.startswith("acp.") and qualified.rpartition(".")[2] == named else None
        if qualified in _NOTIFICATION_HELPER:
            return UNCHANGED["session_update"]
        return () if qualified.startswith("acp.") and qualified.endswith(("Request", "Notification")) else None

    def _left(self, node: cst.Call, message: str) -> None:
        self.context.report(Report(node, self.code, message, fixable=False))
