"""ACP011 legacy-mention: a mention of the removed field that no rule migrated or explained.

The census behind exit 0: once the other rules are done (in `fix`, on the files it
wrote, read back), every mention of `slash_commands` / `slashCommands` left in the
files of the run either stands where another finding already speaks, or in a context
that shows it is no ACP site, or is reported here. So `fix` exits 0 only when nothing
that could carry the commands is left behind silently.

Counted where no other rule reads: in Python modules and stubs (whose code the other
rules judge), a doctest line holding the name, and a dump splatted into the
capabilities (`AgentCapabilities(**settings.capabilities.model_dump())`) from a model
that this module or one it imports declares with the field: the list still flows to
`initialize`. In notebooks' code cells and the Python blocks of Markdown and reST, a
keyword argument, an attribute, a string equal to the name, or a field declared in a
class body. In JSON, YAML and snapshot files (syrupy's `.ambr`), every line holding
the name. Prose, comments and a name the project chose for its own variable or
function are not counted.

Not counted, being no ACP site: an assertion of absence (`not hasattr(caps,
"slash_commands")`, `"slashCommands" not in caps`), old JSON kept for compatibility
(a key of a dict given to `model_validate`), a client or proxy stripping the key from
an old agent's answer (`caps.pop("slashCommands", None)`).

Resolving it: move what the mention carries to the agent's per-session commands
(`acp-migrate rules ACP005`), update the test, fixture or snapshot to what a session
now receives, or keep a deliberate one: `acp-migrate: ignore[ACP011]` in a comment on
its line (Python, YAML, a notebook cell, Markdown), or `extend-exclude` for a JSON
file kept on purpose.
"""

from __future__ import annotations

from acp_migrate.rules.base import NOT_HASATTR, NOT_IN, PARSED_DICT_KEY, POPPED_KEY, Example, Rule
from acp_migrate.rules.shared import CAPABILITY_CLASSES, HISTORICAL_TEXTS, LEGACY_KEYS, LEGACY_TOKENS

# A settings model whose dump is splatted into the capabilities, with `field` among its fields.
_SETTINGS = (
    "from acp.schema import AgentCapabilities\n"
    "from pydantic import BaseModel\n"
    "\n"
    "\n"
    "class CapabilitySettings(BaseModel):\n"
    "    load_session: bool = True\n"
    "{field}"
    "\n"
    "\n"
    "def capabilities(settings: CapabilitySettings) -> AgentCapabilities:\n"
    "    return AgentCapabilities(**settings.model_dump())\n"
)


class LegacyMention(Rule):
    code = "ACP011"
    name = "legacy-mention"
    summary = "legacy mention not migrated"
    fixable = False
    census = True
    census_splats = CAPABILITY_CLASSES
    # The legacy words, and a splat into the capabilities (its model may be another module's).
    triggers = (*LEGACY_TOKENS, *(f"{name}(**".encode() for name in sorted(CAPABILITY_CLASSES)))
    screen_words = LEGACY_KEYS
    screen_harmless = frozenset({NOT_HASATTR, NOT_IN, PARSED_DICT_KEY, POPPED_KEY})
    suffixes = (".py", ".pyi", ".ipynb", ".md", ".rst", ".json", ".yaml", ".yml", ".ambr")
    skipped_names = HISTORICAL_TEXTS  # as ACP006: what was true then (AgentPool's docs/rfcs)
    examples = (
        Example(
            before=_SETTINGS.format(field="    slash_commands: list[dict] = []\n"),
            resolved=_SETTINGS.format(field=""),
        ),
        Example(
            before='{"agentCapabilities": {"loadSession": true, "slashCommands": []}}\n',
            path="tests/fixtures/initialize.json",
            resolved='{"agentCapabilities": {"loadSession": true}}\n',
        ),
        Example(
            before='```python\ncaps = answer["agentCapabilities"]\ncaps.pop("slashCommands", None)  # an old agent\'s\n```\n',
            path="docs/proxy.md",
            flagged=False,
        ),
        Example(
            before="```python\nslash_commands = load()  # the project's own name\n```\n",
            path="docs/setup.md",
            flagged=False,
        ),
    )
