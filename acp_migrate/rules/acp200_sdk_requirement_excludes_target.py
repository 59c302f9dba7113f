"""ACP200 sdk-requirement-excludes-target: the project's requirement on
`agent-client-protocol` (pyproject.toml's dependencies, a requirements*.txt line,
setup.cfg's `install_requires`) does not admit the SDK release the run migrates to
(`--target-sdk`, `target-sdk`): the migrated code would be installed against the old
release.

`fix` raises it in pyproject.toml and requirements files where it is a plain specifier:
its lower bounds stay (a pin `==0.8.0` becomes `>=0.8.0`: the release the code is written
for, which the migrated code keeps running on wherever the target allows), its upper
bounds become the release after the target's minor (`<1.1` for 1.0). A wildcard, `===`,
a lower bound above the target, or setup.cfg is reported: a person raises it. Checked in
the files a run with a target reads (the folder walk picks them up then).
"""

from __future__ import annotations

import re

from acp_migrate.rules.base import Example, Rule
from acp_migrate.sdk import REQUIREMENT_FILES, parse_requirement, raised

# A quoted requirement on the SDK in TOML; a requirement line elsewhere.
_TOML = re.compile(
    r""""(agent[-_.]client[-_.]protocol\b[^"\n]*)"|'(agent[-_.]client[-_.]protocol\b[^'\n]*)'""", re.IGNORECASE
)
_LINE = re.compile(r"^[ \t]*(agent[-_.]client[-_.]protocol\b[^#\n]*?)[ \t]*(?:#.*)?$", re.IGNORECASE | re.MULTILINE)


class SdkRequirementExcludesTarget(Rule):
    code = "ACP200"
    name = "sdk-requirement-excludes-target"
    summary = "The project's requirement on agent-client-protocol excludes the target SDK release."
    fixable = True
    suffixes = (".toml", ".txt", ".cfg")
    file_names = REQUIREMENT_FILES
    example_path = "requirements.txt"
    triggers = (b"agent-client-protocol", b"agent_client_protocol", b"agent.client.protocol")
    examples = (
        Example(before="agent-client-protocol==0.8.0\n", after="agent-client-protocol>=0.8.0,<1.1\n"),
        Example(
            path="pyproject.toml",
            before='[project]\nname = "agent"\ndependencies = ["agent-client-protocol>=0.7,<0.13"]\n',
            after='[project]\nname = "agent"\ndependencies = ["agent-client-protocol>=0.7,<1.1"]\n',
        ),
        Example(path="setup.cfg", before="[options]\ninstall_requires =\n    agent-client-protocol==0.8.*\n"),
        Example(before="agent-client-protocol>=0.9\n", flagged=False),
    )

    @classmethod
    def find_in(cls, text: str, suffix: str, settings) -> list:
        target = settings.sdk
        if target is None:
            return []
        found = []
        for match in (_TOML if suffix == ".toml" else _LINE).finditer(text):
            group = match.lastindex
            written = match.group(group).rstrip()
            requirement = parse_requirement(written, "")
            if requirement is None or requirement.admits(target.version):
                continue
            start = match.start(group)
            line = text.count("\n", 0, start) + 1
            column = start - (text.rfind("\n", 0, start) + 1) + 1
            new = raised(written, target.version) if suffix != ".cfg" else None
            edits = [(start, start + len(written), new)] if new is not None else []
            how = f": `{new}` admits it" if new else ": raise it by hand"
            message = f"`{written}` excludes the target SDK {target.version}{how}"
            found.append((line, column, column + len(written), message, edits))
        return found
