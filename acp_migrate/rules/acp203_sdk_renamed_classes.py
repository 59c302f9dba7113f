"""ACP203 sdk-renamed-classes: a schema class SDK 0.9 renamed (`KillTerminalCommandRequest`
and `...Response`, `AuthMethod`, `FileSystemCapability`, `SessionConfigOption`,
`SetSessionConfigOptionRequest`): the code fails at import on 0.9 and later.

`fix` names the new class (as 0.9's `acp.schema` has it) in the import, wherever the
imported name is mentioned and where the module's attribute is read:
`KillTerminalRequest`/`KillTerminalResponse`, `AuthMethodAgent` (0.9 adds the env-var and
terminal methods beside it), `FileSystemCapabilities`, `SessionConfigOptionSelect` (the
select option the old root model held; 0.9 adds a boolean one) and
`SetSessionConfigOptionSelectRequest`. `from acp import ...` keeps importing from `acp`,
which exports the new names. Runs when the SDK target is 0.9 or newer and the code is
written for an older release (or for none stated).

`SessionConfigOptionSelect` is in 0.8 too; the other new names are not: the migrated code
needs 0.9.
"""

from __future__ import annotations

from acp_migrate.rules.base import Example, Rule
from acp_migrate.rules.shared.renamed import Renamer

RENAMES = {
    "KillTerminalCommandRequest": "KillTerminalRequest",
    "KillTerminalCommandResponse": "KillTerminalResponse",
    "AuthMethod": "AuthMethodAgent",
    "FileSystemCapability": "FileSystemCapabilities",
    "SessionConfigOption": "SessionConfigOptionSelect",
    "SetSessionConfigOptionRequest": "SetSessionConfigOptionSelectRequest",
}
# What 0.8's `acp` exports of them (0.9's exports the new names).
EXPORTED = frozenset({"KillTerminalCommandRequest", "KillTerminalCommandResponse", "SetSessionConfigOptionRequest"})


class SdkRenamedClasses(Rule):
    code = "ACP203"
    name = "sdk-renamed-classes"
    summary = "SDK 0.9 renamed six schema classes: name the new ones."
    fixable = True
    sdk_release = "0.9.0"
    triggers = (b"KillTerminalCommand", b"AuthMethod", b"FileSystemCapability", b"SessionConfigOption")
    screen_words = frozenset(RENAMES)
    examples = (
        Example(
            before=(
                "from acp.schema import AuthMethod, InitializeResponse\n"
                "\n"
                "\n"
                "def initialized():\n"
                '    methods = [AuthMethod(id="token", name="Token")]\n'
                "    return InitializeResponse(protocol_version=1, auth_methods=methods)\n"
            ),
            after=(
                "from acp.schema import AuthMethodAgent, InitializeResponse\n"
                "\n"
                "\n"
                "def initialized():\n"
                '    methods = [AuthMethodAgent(id="token", name="Token")]\n'
                "    return InitializeResponse(protocol_version=1, auth_methods=methods)\n"
            ),
        ),
        Example(
            before="from acp import KillTerminalCommandResponse as Killed\n\nKILLED = Killed()\n",
            after="from acp import KillTerminalResponse as Killed\n\nKILLED = Killed()\n",
        ),
        Example(before="class AuthMethod:\n    pass\n", flagged=False),
    )

    def __init__(self, context) -> None:
        super().__init__(context)
        self.renamer = Renamer(context, self.code, "0.9", RENAMES, EXPORTED)

    def visit_ImportFrom(self, node) -> None:
        self.renamer.import_from(node)

    def visit_Attribute(self, node) -> None:
        self.renamer.attribute(node)
