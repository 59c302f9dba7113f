"""ACP204 sdk-session-model-removed: SDK 0.11 removes the session model picker:
`set_session_model`, `SetSessionModelRequest`/`Response`, `SessionModelState`, `ModelInfo`
and the `models` field of the setup results (`NewSessionResponse`, `LoadSessionResponse`,
...). The imports fail on 0.11; the field is refused.

Reported, never deleted: a model picker becomes a session configuration option, a
design decision for a person: a `SessionConfigOptionSelect` with `category="model"`
among the setup result's `config_options` (its options the models, `current_value` the
model in use), and the agent's `set_config_option` handler doing what
`set_session_model` did. Each import, each `set_session_model` handler or call, and each
`models=` given to a setup result is a finding naming what to decide. Runs when the SDK
target is 0.11 or newer and the code is written for an older release.
"""

from __future__ import annotations

from acp_migrate.rules.base import Example, Report, Rule
from acp_migrate.rules.shared.renamed import Removal

DECIDE = 'offer the models as a session config option (`SessionConfigOptionSelect`, `category="model"`)'
WHY = {
    "SetSessionModelRequest": f"{DECIDE}, set through `set_config_option`",
    "SetSessionModelResponse": f"{DECIDE}, set through `set_config_option`",
    "SessionModelState": f"{DECIDE} among the setup result's `config_options`",
    "ModelInfo": f"each model becomes one option when you {DECIDE}",
}
SETUP_RESULTS = frozenset({"NewSessionResponse", "LoadSessionResponse", "ResumeSessionResponse", "ForkSessionResponse"})


class SdkSessionModelRemoved(Removal, Rule):
    code = "ACP204"
    name = "sdk-session-model-removed"
    summary = "SDK 0.11 removes the session model picker: a person makes it a config option."
    fixable = False
    sdk_release = "0.11.0"
    why = WHY
    # `models=` is reported only in a setup result's call, which names the result.
    triggers = (b"SessionModel", b"ModelInfo", b"set_session_model", b"SessionResponse")
    screen_words = frozenset({*WHY, "set_session_model", *SETUP_RESULTS})
    examples = (
        Example(
            before=(
                "from acp.schema import NewSessionResponse, SessionModelState\n"
                "\n"
                "\n"
                "def created(session_id, models):\n"
                "    return NewSessionResponse(session_id=session_id, models=SessionModelState(**models))\n"
            ),
            resolved=(
                "from acp.schema import NewSessionResponse, SessionConfigOptionSelect, SessionConfigSelectOption\n"
                "\n"
                "\n"
                "def created(session_id, models, current):\n"
                "    picker = SessionConfigOptionSelect(\n"
                '        type="select",\n'
                '        id="model",\n'
                '        name="Model",\n'
                '        category="model",\n'
                "        current_value=current,\n"
                "        options=[SessionConfigSelectOption(value=m, name=m) for m in models],\n"
                "    )\n"
                "    return NewSessionResponse(session_id=session_id, config_options=[picker])\n"
            ),
        ),
        Example(before="def pick(models):\n    return sorted(models)\n", flagged=False),
    )

    def visit_FunctionDef(self, node) -> None:
        import libcst as cst

        # A method: an agent's handler, which 0.11's router no longer calls.
        if node.name.value == "set_session_model" and any(isinstance(s, cst.ClassDef) for s in self.context.scopes):
            message = f"`set_session_model` is no longer routed from SDK 0.11: {DECIDE}, set in `set_config_option`"
            self.context.report(Report(node.name, self.code, message, False))

    def visit_Call(self, node) -> None:
        import libcst as cst

        from acp_migrate.cst.names import last_part

        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "set_session_model":
            message = f"`set_session_model` is gone in SDK 0.11: {DECIDE}, set through `set_config_option`"
            self.context.report(Report(node, self.code, message, False))
        elif last_part(self.context.resolve(func)) in SETUP_RESULTS:
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value == "models":
                    message = f"a setup result's `models` is gone in SDK 0.11: {DECIDE} in `config_options`"
                    self.context.report(Report(arg, self.code, message, False))
