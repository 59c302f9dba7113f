"""ACP006 markdown-slash-commands: documentation whose JSON examples show slash commands
in the capabilities of an `initialize` result.

Docs drift silently: after the migration a JSON block showing
`"agentCapabilities": {"slashCommands": [...]}` teaches the old protocol. Reported,
never rewritten (prose around it usually needs a person too). Exclude historical
folders (old RFCs) by path.

Resolving it: drop `slashCommands` from the `initialize` example and show the
commands where a client gets them now: in the `session/new` (load, resume, fork)
result's `availableCommands` (protocol v2), or in the `available_commands_update`
notification that follows the setup response (v1), as docs/runtime.md describes
(example 1 shows the result).
"""

from __future__ import annotations

import re
from typing import Any

from acp_migrate.rules.base import Example, Rule
from acp_migrate.rules.shared import CAPABILITY_KEYS, LEGACY_KEYS, LEGACY_TOKENS

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>```+|~~~+)[ \t]*(?P<info>[^\n`]*)$")
_LEGACY_KEY_TEXT = re.compile(r'"(?:slashCommands|slash_commands)"\s*:')


def _has_legacy_capabilities(value: Any) -> bool:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in CAPABILITY_KEYS and isinstance(item, dict) and LEGACY_KEYS & item.keys():
                return True
            if _has_legacy_capabilities(item):
                return True
    elif isinstance(value, list):
        return any(_has_legacy_capabilities(item) for item in value)
    return False


def _json_blocks(lines: list[str]):
    """(first line index, block lines) of fenced blocks tagged json/jsonc/json5 or untagged."""
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        fence = opening.group("fence")
        info = opening.group("info").strip().lower()
        end = index + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        if info.split(" ")[0] in {"", "json", "jsonc", "json5", "jsonl"}:
            yield index + 1, lines[index + 1 : end]
        index = end + 1


def _legacy_key_lines(block: list[str]) -> list[tuple[int, int]]:
    """(line offset, column) of legacy keys that come after a capabilities key."""
    result = []
    seen_capabilities = False
    for offset, line in enumerate(block):
        if any(f'"{key}"' in line for key in CAPABILITY_KEYS):
            seen_capabilities = True
        match = _LEGACY_KEY_TEXT.search(line)
        if match and seen_capabilities:
            result.append((offset, match.start()))
    return result


def find_in_markdown(text: str) -> list[tuple[int, int, int]]:
    """(line, column, end column), 1-based, of each legacy key shown under capabilities."""
    import json  # here: the registry imports this module at every start-up

    lines = text.split("\n")
    found = []
    for start, block in _json_blocks(lines):
        try:
            parsed = json.loads("\n".join(block))
        except ValueError:
            parsed = None  # `...` placeholders and comments are common in docs: go by text
        if parsed is not None and not _has_legacy_capabilities(parsed):
            continue
        for offset, column in _legacy_key_lines(block):
            key_end = lines[start + offset].index('"', column + 1) + 1
            found.append((start + offset + 1, column + 1, key_end + 1))
    return found


class MarkdownCapabilities(Rule):
    code = "ACP006"
    name = "markdown-slash-commands"
    summary = "A Markdown JSON example shows slash commands in the initialize capabilities."
    fixable = False
    triggers = LEGACY_TOKENS
    suffixes = (".md", ".markdown")
    examples = (
        Example(
            before=(
                "The agent answers `initialize` with:\n"
                "\n"
                "```json\n"
                '{"protocolVersion": 1, "agentCapabilities": {"loadSession": true,\n'
                '  "slashCommands": [{"name": "web", "description": "Search"}]}}\n'
                "```\n"
            ),
            resolved=(
                "The agent answers `initialize` with:\n"
                "\n"
                "```json\n"
                '{"protocolVersion": 1, "agentCapabilities": {"loadSession": true}}\n'
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
                "```json\n"
                '{"sessionUpdate": "available_commands_update", "availableCommands": []}\n'
                "```\n"
            ),
            flagged=False,
        ),
    )

    @staticmethod
    def find(text: str) -> list[tuple[int, int, int, str]]:
        return [
            (
                line,
                column,
                end,
                "this example shows slash commands in the initialize capabilities; "
                "ACP advertises them per session (setup results and `available_commands_update`)",
            )
            for line, column, end in find_in_markdown(text)
        ]
