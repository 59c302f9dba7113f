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

`SessionConfigOption` was a root model holding the select option: a call wrapping one
(`SessionConfigOption(option)`, `SessionConfigOption(root=option)`) becomes the option
itself, which 0.9 takes as it is. `SessionConfigOptionSelect` is in 0.8 too; the other new
names are not: the migrated code needs 0.9.
"""

from __future__ import annotations

from acp_migrate.rules.base import Example, Report, Rule
from acp_migrate.rules.shared.renamed import Renaming

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


class SdkRenamedClasses(Renaming, Rule):
    code = "ACP203"
    name = "sdk-renamed-classes"
    summary = "SDK 0.9 renamed six schema classes: name the new ones."
    fixable = True
    sdk_release = "0.9.0"
    renames = RENAMES
    exported = EXPORTED
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
        Example(
            before="from acp.schema import SessionConfigOption\n\n\ndef options(select):\n    return [SessionConfigOption(root=select)]\n",
            after="from acp.schema import SessionConfigOptionSelect\n\n\ndef options(select):\n    return [select]\n",
        ),
        Example(before="class AuthMethod:\n    pass\n", flagged=False),
    )

    def visit_Call(self, node) -> None:
        if self.context.resolve(node.func) != "acp.schema.SessionConfigOption" or len(node.args) != 1:
            return
        (arg,) = node.args
        if arg.star or arg.keyword is not None and arg.keyword.value != "root":
            return  # fields given one by one: the renamed class takes them as they are
        message = "`SessionConfigOption(...)` wrapped the select option, which SDK 0.9 takes as it is"
        with self.context.fix(Report(node, self.code, message, True)):
            self.context.replace(node, arg.value)
