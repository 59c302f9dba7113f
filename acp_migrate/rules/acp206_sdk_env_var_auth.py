"""ACP206 sdk-env-var-auth: SDK 1.0 removes authentication by environment variable
(`EnvVarAuthMethod`, `AuthMethodEnvVar`, `AuthEnvVar`): the imports fail on 1.0.

Reported, never edited: which method replaces it is a person's decision:
`AuthMethodAgent` (the agent authenticates itself, in its `authenticate` handler, reading
the variable), or `TerminalAuthMethod` (the client runs a login command). Runs when the
SDK target is 1.0 or newer and the code is written for an older release.
"""

from __future__ import annotations

from acp_migrate.rules.base import Example, Rule
from acp_migrate.rules.shared.renamed import Removal

DECIDE = "advertise `AuthMethodAgent` (read the variable in `authenticate`) or `TerminalAuthMethod` (a login command)"
WHY = dict.fromkeys(("EnvVarAuthMethod", "AuthMethodEnvVar", "AuthEnvVar"), DECIDE)


class SdkEnvVarAuth(Removal, Rule):
    code = "ACP206"
    name = "sdk-env-var-auth"
    summary = "SDK 1.0 removes the env-var auth method: a person picks the agent or terminal one."
    fixable = False
    sdk_release = "1.0.0"
    why = WHY
    triggers = (b"EnvVar",)
    screen_words = frozenset(WHY)
    examples = (
        Example(
            before=(
                "from acp.schema import EnvVarAuthMethod\n"
                "\n"
                'METHODS = [EnvVarAuthMethod(type="env_var", id="key", name="API key", vars=[])]\n'
            ),
            resolved=(
                "from acp.schema import AuthMethodAgent\n"
                "\n"
                'METHODS = [AuthMethodAgent(id="key", name="API key", description="Reads API_KEY")]\n'
            ),
        ),
        Example(before="ENV_VAR = 'KEY'\n", flagged=False),
    )
