"""ACP007 migration-todo: a `# acp-migrate: TODO` comment left by `fix` is unresolved.

`fix` leaves one above a command list advertised at `initialize` that it could not
hand to the agent's `CommandAdvertiser` safely (ACP005 gave the reason; the list and the
code feeding it stay, so the server runs as before). The lint keeps failing until a
person advertises those commands per session and deletes the comment.

Resolving it: follow `acp-migrate rules ACP005` (a `CommandAdvertiser` bound to the
connection and given the list in `initialize`, `advertise(<the list>)`), then delete the legacy keyword the comment sits above and the
comment itself. To keep the legacy code on purpose for now, replace the TODO with a
suppression (`# acp-migrate: ignore[ACP001]` on the keyword's line) so the decision
is visible.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acp_migrate.rules.base import Example, Report, Rule
from acp_migrate.rules.shared import TODO_MARK

if TYPE_CHECKING:
    import libcst as cst


class MigrationTodo(Rule):
    code = "ACP007"
    name = "migration-todo"
    summary = "A `# acp-migrate: TODO` left by fix still needs a person."
    fixable = False
    triggers = (b"acp-migrate: TODO",)
    examples = (
        Example(
            before=(
                "def build(commands):\n"
                "    # acp-migrate: TODO: advertise `commands` per session\n"
                "    return make_response()\n"
            ),
            resolved=(
                "import uuid\n"
                "\n"
                "from acp.schema import NewSessionResponse\n"
                "\n"
                "\n"
                "def build():\n"
                "    return make_response()\n"
                "\n"
                "\n"
                "class Agent:  # `commands` is advertised per session now (acp-migrate rules ACP005)\n"
                "    async def initialize(self, protocol_version, **kwargs):\n"
                "        self.advertiser.advertise(self.commands)\n"
                "        return build()\n"
                "\n"
                "    async def new_session(self, cwd, **kwargs):\n"
                "        return NewSessionResponse(session_id=uuid.uuid4().hex)\n"
            ),
        ),
        Example(before="# acp-migrate: ignore[ACP004]\nx = 1  # slash_commands\n", flagged=False),
    )

    def visit_Comment(self, node: cst.Comment) -> None:
        if node.value.startswith(TODO_MARK):
            self.context.report(Report(node, self.code, node.value[len("# ") :], fixable=False))
