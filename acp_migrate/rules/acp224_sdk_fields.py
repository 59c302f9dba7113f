"""ACP224 sdk-fields: a field of an SDK model named in 0.6's spelling, where 0.7 renamed
it: the model's fields are snake_case from 0.7 (`protocol_version`), the wire's
camelCase names (`protocolVersion`) their aliases.

- A validator on a subclass of an SDK model naming the 0.6 field
  (`@field_validator("protocolVersion")`): from 0.7 pydantic refuses the class as it
  is defined, and the module fails at import. `fix` names the field as 0.7 does, in
  `field_validator`, `field_serializer` and pydantic 1's `validator`, on a class whose
  base is a model of `acp` (`acp.schema.InitializeRequest`, `acp.InitializeResponse`).
- `model_dump()` (or `model_dump_json()`) of an SDK model: its keys were the camelCase
  field names, from 0.7 they are snake_case, so a dict sent as JSON or read by key
  silently changes. `fix` adds `by_alias=True`, which gives the camelCase (wire) keys on
  every release. The model is one built in place (`SessionNotification(...).model_dump()`),
  a parameter annotated with its class, or a local assigned once from its constructor
  and read only there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acp_migrate.rules.base import Example, Report, Rule

if TYPE_CHECKING:
    import libcst as cst

DECORATORS = frozenset({"field_validator", "field_serializer", "validator"})
DUMPS = frozenset({"model_dump", "model_dump_json"})


class SdkValidatorField(Rule):
    code = "ACP224"
    name = "sdk-fields"
    summary = "SDK 0.7 renamed fields."
    fixable = True
    sdk_release = "0.7.0"
    triggers = tuple(name.encode() for name in sorted(DECORATORS | DUMPS))
    screen_words = DECORATORS | DUMPS
    examples = (
        Example(
            before=(
                "from pydantic import field_validator\n"
                "\n"
                "from acp.schema import InitializeRequest\n"
                "\n"
                "\n"
                "class StrictInitialize(InitializeRequest):\n"
                '    @field_validator("protocolVersion")\n'
                "    @classmethod\n"
                "    def supported(cls, value: int) -> int:\n"
                "        return value\n"
            ),
            after=(
                "from pydantic import field_validator\n"
                "\n"
                "from acp.schema import InitializeRequest\n"
                "\n"
                "\n"
                "class StrictInitialize(InitializeRequest):\n"
                '    @field_validator("protocol_version")\n'
                "    @classmethod\n"
                "    def supported(cls, value: int) -> int:\n"
                "        return value\n"
            ),
            target_sdk="1.0.0",
        ),
        Example(
            before=(
                "import json\n"
                "\n"
                "from acp.schema import SessionNotification\n"
                "\n"
                "\n"
                "def frame(notification: SessionNotification) -> str:\n"
                "    return json.dumps(notification.model_dump())\n"
            ),
            after=(
                "import json\n"
                "\n"
                "from acp.schema import SessionNotification\n"
                "\n"
                "\n"
                "def frame(notification: SessionNotification) -> str:\n"
                "    return json.dumps(notification.model_dump(by_alias=True))\n"
            ),
            target_sdk="1.0.0",
        ),
    )

    def visit_Call(self, node: cst.Call) -> None:
        import libcst as cst

        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in DUMPS:
            return
        if any(arg.keyword is not None and arg.keyword.value == "by_alias" or arg.star for arg in node.args):
            return
        if not _dumped_model(self.context, func.value):
            return
        shown = f"`{self.context.code(node, 60)}`"
        message = f"{shown}: from SDK 0.7 its keys are snake_case; `by_alias=True` keeps the wire's camelCase"
        by_alias = cst.Arg(
            keyword=cst.Name("by_alias"),
            value=cst.Name("True"),
            equal=cst.AssignEqual(
                whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
            ),
        )
        args = list(node.args)
        if args and args[-1].comma == cst.MaybeSentinel.DEFAULT:
            args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        with self.context.fix(Report(node, self.code, message, fixable=True)):
            self.context.replace(node, node.with_changes(args=[*args, by_alias]))

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        import libcst as cst

        from acp_migrate.rules.shared.sdk_handlers import snake

        if not any(_is_model(self.context.resolve(base.value)) for base in node.bases):
            return
        for method in node.body.body if isinstance(node.body, cst.IndentedBlock) else ():
            for decorator in getattr(method, "decorators", ()):
                call = decorator.decorator
                if (
                    not isinstance(call, cst.Call)
                    or (self.context.resolve(call.func) or "").rsplit(".", 1)[-1] not in DECORATORS
                ):
                    continue
                for arg in call.args:
                    value = arg.value
                    if arg.keyword is not None or not isinstance(value, cst.SimpleString):
                        continue
                    field = value.evaluated_value
                    if not isinstance(field, str) or snake(field) == field:
                        continue
                    opening = value.prefix + value.quote  # the string's own prefix and quotes
                    message = f"`{node.name.value}` validates `{field}`: from SDK 0.7 the field is `{snake(field)}`"
                    with self.context.fix(Report(value, self.code, message, fixable=True)):
                        self.context.replace(value, cst.SimpleString(f"{opening}{snake(field)}{value.quote}"))


def _dumped_model(context, receiver: cst.BaseExpression) -> bool:
    """Whether `receiver` is an SDK model: built in place, a parameter annotated with its
    class, or a local of the function assigned once from its constructor."""
    import libcst as cst

    if isinstance(receiver, cst.Call):
        return _is_model(context.resolve(receiver.func))
    function = context.function
    if not isinstance(receiver, cst.Name) or function is None:
        return False
    name = receiver.value
    for param in (*function.params.params, *function.params.kwonly_params):
        if param.name.value == name:
            return param.annotation is not None and _is_model(context.resolve(param.annotation.annotation))
    if context.mentions_in(function).get(name, 0) < 2:
        return False
    origin, _ = context.value_origin(receiver)
    return origin is not receiver and isinstance(origin, cst.Call) and _is_model(context.resolve(origin.func))


def _is_model(qualified: str | None) -> bool:
    """A class of the SDK's schema: `acp.schema.X` or `acp.X`, capitalised."""
    if not qualified or not qualified.startswith("acp."):
        return False
    name = qualified.rsplit(".", 1)[-1]
    return name[:1].isupper() and name not in ("Agent", "Client", "AgentSideConnection", "ClientSideConnection")
