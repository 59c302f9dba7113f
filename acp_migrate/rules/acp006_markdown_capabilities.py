"""ACP006 markdown-slash-commands: documentation (Markdown, reStructuredText) whose
examples or prose still show slash commands in the `initialize` capabilities.

Docs drift silently: after the migration a JSON block showing
`"agentCapabilities": {"slashCommands": [...]}` teaches the old protocol. Found:

- JSON blocks (Markdown fences tagged json/jsonc/json5 or untagged; rST
  `.. code-block:: json` and `::` literal blocks) with `slashCommands` /
  `slash_commands` under `agentCapabilities` / `agent_capabilities` / `capabilities`,
  in an `initialize` result (beside `protocolVersion`), or as a bare
  `{"slash_commands": [...]}` block whose heading or lead paragraph says
  capabilities or initialize;
- prose placing the commands there: "AvailableCommand[] in capabilities", "slash
  commands are advertised at initialize" (rewritten), and prose naming the removed
  field, `AgentCapabilities.slash_commands`, "the `slashCommands` capability"
  (reported). Sentences saying what is no longer done ("not", "no longer",
  "instead of", "removed", ...) are left alone.

`fix` rewrites what has one clear per-session form. A block that is only the command
list becomes the `available_commands_update` notification a client receives after
`session/new`, with the same command objects (the JSON-RPC message, or after a block
in Python's spelling, `agent_capabilities`, the model's dump in that spelling; the
block's indentation; one line if the block was one line); a capabilities object
holding other keys too loses the legacy key, and the notification follows the block
(an empty list is only removed).
The lead phrase naming capabilities becomes "in each session's
`available_commands_update`". Left as they are, reported: blocks that are not plain
JSON (`...` placeholders, comments), a value that is not a list, several legacy keys
in one block, a block replaced under a lead that still names capabilities, and the
prose of such a block, and a sentence that also names the removed field. The byte prefilter reads only files holding `slash_commands`
or `slashCommands`: prose alone, on a page without the key, is not read.

A page naming nothing of ACP (neither ACP, `agentCapabilities`, `protocolVersion`, a
`session/` method nor `AvailableCommand`) is about another product's slash commands (a
chat bot's README) and is not read. Historical texts are left as they are: files in a folder named `rfcs`, `rfc`, `adr`,
`adrs` or `decisions`, and changelogs (`CHANGELOG*`, `HISTORY*`, `NEWS*`,
`RELEASE-NOTES*`) are not read. Exclude other such folders by path:
`extend-exclude = ["docs/proposals"]` in `[tool.acp-migrate]` (with `--force-exclude`
for files named explicitly, as the pre-commit hooks do).

Resolving what is left: drop `slashCommands` from the `initialize` example and show
the commands where a client gets them now: in the `session/new` (load, resume, fork)
result's `availableCommands` (protocol v2), or in the `available_commands_update`
notification that follows the setup response (v1) (example 4 shows the result).
"""

from __future__ import annotations

from acp_migrate.rules.base import Example, Rule
from acp_migrate.rules.shared import HISTORICAL_TEXTS, LEGACY_TOKENS, SESSION_ID


class MarkdownCapabilities(Rule):
    code = "ACP006"
    name = "markdown-slash-commands"
    summary = "A documentation example or sentence shows slash commands in the initialize capabilities."
    fixable = True
    triggers = LEGACY_TOKENS
    suffixes = (".md", ".markdown", ".rst")
    skipped_names = HISTORICAL_TEXTS
    examples = (
        Example(
            before=(
                "Skills appear as AvailableCommand in AgentCapabilities:\n"
                "```json\n"
                "{\n"
                '  "slash_commands": [\n'
                '    {"name": "web", "description": "Search the web"}\n'
                "  ]\n"
                "}\n"
                "```\n"
            ),
            after=(
                "Skills appear as AvailableCommand in each session's `available_commands_update`:\n"
                "```json\n"
                "{\n"
                '  "jsonrpc": "2.0",\n'
                '  "method": "session/update",\n'
                '  "params": {\n'
                f'    "sessionId": "{SESSION_ID}",\n'
                '    "update": {\n'
                '      "sessionUpdate": "available_commands_update",\n'
                '      "availableCommands": [\n'
                '        {"name": "web", "description": "Search the web"}\n'
                "      ]\n"
                "    }\n"
                "  }\n"
                "}\n"
                "```\n"
            ),
        ),
        Example(
            before=(
                "The agent answers `initialize` with:\n"
                "\n"
                "```json\n"
                '{"protocolVersion": 1, "agentCapabilities": {"loadSession": true, "slashCommands": [{"name": "web"}]}}\n'
                "```\n"
            ),
            after=(
                "The agent answers `initialize` with:\n"
                "\n"
                "```json\n"
                '{"protocolVersion": 1, "agentCapabilities": {"loadSession": true}}\n'
                "```\n"
                "\n"
                "Once a session is set up (after the `session/new` response), "
                "the agent lists its commands in an `available_commands_update`:\n"
                "\n"
                "```json\n"
                f'{{"jsonrpc": "2.0", "method": "session/update", "params": {{"sessionId": "{SESSION_ID}", '
                '"update": {"sessionUpdate": "available_commands_update", "availableCommands": [{"name": "web"}]}}}\n'
                "```\n"
            ),
        ),
        Example(
            before=(
                "The agent answers ``initialize`` with:\n"
                "\n"
                ".. code-block:: json\n"
                "\n"
                '   {"agentCapabilities": {"loadSession": true, "slashCommands": [{"name": "web"}]}}\n'
            ),
            after=(
                "The agent answers ``initialize`` with:\n"
                "\n"
                ".. code-block:: json\n"
                "\n"
                '   {"agentCapabilities": {"loadSession": true}}\n'
                "\n"
                "Once a session is set up (after the ``session/new`` response), "
                "the agent lists its commands in an ``available_commands_update``:\n"
                "\n"
                ".. code-block:: json\n"
                "\n"
                f'   {{"jsonrpc": "2.0", "method": "session/update", "params": {{"sessionId": "{SESSION_ID}", '
                '"update": {"sessionUpdate": "available_commands_update", "availableCommands": [{"name": "web"}]}}}\n'
            ),
            path="example.rst",
        ),
        Example(
            before=(
                "The agent answers `initialize` with:\n"
                "\n"
                "```jsonc\n"
                '{"agentCapabilities": {"loadSession": true, "slashCommands": [...]}}  // and more\n'
                "```\n"
            ),
            resolved=(
                "The agent answers `initialize` with:\n"
                "\n"
                "```jsonc\n"
                '{"agentCapabilities": {"loadSession": true}}  // and more\n'
                "```\n"
                "\n"
                "and, once a session is set up (after the `session/new` response), lists its commands:\n"
                "\n"
                "```json\n"
                '{"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "sess_1",\n'
                '  "update": {"sessionUpdate": "available_commands_update",\n'
                '    "availableCommands": [{"name": "web", "description": "Search"}]}}}\n'
                "```\n"
            ),
        ),
        Example(
            before=(
                "Commands are no longer advertised at initialize; each session gets them:\n"
                "\n"
                "```json\n"
                '{"sessionUpdate": "available_commands_update", "availableCommands": []}\n'
                "```\n"
            ),
            flagged=False,
        ),
    )

    @staticmethod
    def find(text: str, suffix: str = ".md") -> list[tuple[int, int, int, str, list[tuple[int, int, str]]]]:
        """(line, column, end column, message, edits): 1-based positions; each edit is
        (start offset, end offset, replacement) in `text`, none when fix leaves it."""
        from acp_migrate.rules.shared.markdown_capabilities import find_in_document

        return [
            (found.line + 1, found.column + 1, found.end_column + 1, found.message, found.edits)
            for found in find_in_document(text, suffix)
        ]
