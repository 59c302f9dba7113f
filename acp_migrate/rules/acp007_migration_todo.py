"""ACP007 migration-todo: a `# acp-migrate: TODO` comment left by `fix` is unresolved.

`fix` leaves one where it removed a command list from `initialize` but could not
move it into the session setup handlers safely. The lint keeps failing until a person
advertises those commands per session and deletes the comment.
"""

from __future__ import annotations

import libcst as cst

from acp_migrate.rules.acp005_commands_not_advertised import TODO_MARK
from acp_migrate.rules.base import Example, Report, Rule


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
        ),
        Example(before="# acp-migrate: ignore[ACP004]\nx = 1  # slash_commands\n", flagged=False),
    )

    def visit_Comment(self, node: cst.Comment) -> None:
        if node.value.startswith(TODO_MARK):
            self.context.report(Report(node, self.code, node.value[len("# ") :], fixable=False))
