"""The codemod's rules, one module each, found here: every `acpNNN_<name>.py` of this
package holds one `Rule` subclass (rules/base.py), found by `acp_migrate/rulebook.py`
as the probe's wire rules are. Adding a rule is adding such a module
(docs/ARCHITECTURE.md, "Where a rule lives"); nothing else lists the rules.

The engine reads the rules' declarations from here (the prefilter's tokens, the
suffixes discovery reads, the names check's hollowing keeps, the codes `select`
accepts), also for runs that parse nothing: importing a rule module must not import
LibCST (tests/test_rule_declarations.py holds that).
"""

from __future__ import annotations

from acp_migrate.rulebook import find_rules
from acp_migrate.rules.base import Rule

ALL_RULES: tuple[type[Rule], ...] = find_rules(__name__, __path__, Rule)

# The rules that visit a Python file's tree; census rules read CPython's (engine/analysis/census.py).
PYTHON_RULES = tuple(rule for rule in ALL_RULES if ".py" in rule.suffixes and not rule.census)
CENSUS_RULES = tuple(rule for rule in ALL_RULES if rule.census)
# The rules whose findings are tests of the legacy behaviour -> the marks of code that has
# left it (engine/execution/project.py).
BEHAVIOUR_TESTS = {rule.code: rule.tests_behaviour for rule in ALL_RULES if rule.tests_behaviour}

# The rules that read the project's files for other files' analyses (engine/execution/project.py).
GATHERING_RULES = tuple(rule for rule in ALL_RULES if rule.gathers)

RULES_BY_CODE = {rule.code: rule for rule in ALL_RULES}

# Tokens one of which every file a rule reports on holds (engine/analysis/prefilter.py).
TRIGGERS: tuple[bytes, ...] = tuple(dict.fromkeys(token for rule in ALL_RULES for token in rule.triggers))

# The suffixes of the files some rule reads (engine/execution/discover.py), in the rules' order.
SUFFIXES: tuple[str, ...] = tuple(dict.fromkeys(suffix for rule in ALL_RULES for suffix in rule.suffixes))
# What a folder walk picks up by default: every file of the suffixes of the rules that
# read them all (a rule reading only some files by name, `Rule.file_names`, adds none).
WALKED_SUFFIXES: tuple[str, ...] = tuple(
    dict.fromkeys(suffix for rule in ALL_RULES if not rule.file_names for suffix in rule.suffixes)
)

# Names rules look up in a file's imports though its code need not mention them (a
# rewire asks whether the advertiser is imported already): check's hollowing keeps the
# imports binding them (engine/analysis/hollow.py).
NAMES_LOOKED_UP = frozenset(name for rule in ALL_RULES for name in rule.names_looked_up)

