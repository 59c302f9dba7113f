"""ACP224 sdk-fields: a validator on a subclass of an SDK model naming a field
in 0.6's spelling (`@field_validator("protocolVersion")`); from 0.7 the field is
`protocol_version` (the wire name its alias), and pydantic refuses the class as it is
defined: the module fails at import.

`fix` names the field as 0.7 does (`"protocolVersion"` -> `"protocol_version"`) in
`field_validator`, `field_serializer` and pydantic 1's `validator`, on a class whose
base is a model of `acp` (`acp.schema.InitializeRequest`, `acp.InitializeResponse`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acp_migrate.rules.base import Example, Report, Rule

if TYPE_CHECKING:
    import libcst as cst

DECORATORS = frozenset({"field_validator", "field_serializer", "validator"})


class SdkValidatorField(Rule):
    code = "ACP224"
    name = "sdk-fields"
    summary = "SDK 0.7 renamed fields."
    fixable = True
    sdk_release = "0.7.0"
    triggers = tuple(name.encode() for name in sorted(DECORATORS))
    screen_words = DECORATORS
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
    )

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


def _is_model(qualified: str | None) -> bool:
    """A class of the SDK's schema: `acp.schema.X` or `acp.X`, capitalised."""
    if not qualified or not qualified.startswith("acp."):
        return False
    name = qualified.rsplit(".", 1)[-1]
    return name[:1].isupper() and name not in ("Agent", "Client", "AgentSideConnection", "ClientSideConnection")
