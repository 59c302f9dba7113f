"""The rules, one module each, found here: every `acpNNN_<name>.py` of this package
holds one `Rule` subclass (rules/base.py). Adding a rule is adding such a module
(docs/ARCHITECTURE.md, "Where a rule lives"); nothing else lists the rules.

The engine reads the rules' declarations from here (the prefilter's tokens, the
suffixes discovery reads, the names check's hollowing keeps, the codes `select`
accepts), also for runs that parse nothing: importing a rule module must not import
LibCST (tests/test_rule_declarations.py holds that).
"""

from __future__ import annotations

import importlib
import pkgutil
import re

from acp_migrate.rules.base import Rule

RULE_MODULE = re.compile(r"acp\d{3}_\w+")


def _find_rules() -> tuple[type[Rule], ...]:
    """The `Rule` subclass defined in each `acpNNN_*` module of this package, by code."""
    found = []
    for module_info in pkgutil.iter_modules(__path__):
        if not RULE_MODULE.fullmatch(module_info.name):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        rules = [
            value
            for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, Rule) and value.__module__ == module.__name__
        ]
        if len(rules) != 1:
            raise TypeError(f"{module.__name__} defines {len(rules)} Rule subclasses; a rule module defines one")
        found.append(rules[0])
    return tuple(sorted(found, key=lambda rule: rule.code))


ALL_RULES: tuple[type[Rule], ...] = _find_rules()

PYTHON_RULES = tuple(rule for rule in ALL_RULES if ".py" in rule.suffixes)

RULES_BY_CODE = {rule.code: rule for rule in ALL_RULES}

# Tokens one of which every file a rule reports on holds (engine/analysis/prefilter.py).
TRIGGERS: tuple[bytes, ...] = tuple(dict.fromkeys(token for rule in ALL_RULES for token in rule.triggers))

# The suffixes of the files some rule reads (engine/execution/discover.py), in the rules' order.
SUFFIXES: tuple[str, ...] = tuple(dict.fromkeys(suffix for rule in ALL_RULES for suffix in rule.suffixes))

# Names rules look up in a file's imports though its code need not mention them (a
# rewire asks whether the advertiser is imported already): check's hollowing keeps the
# imports binding them (engine/analysis/hollow.py).
NAMES_LOOKED_UP = frozenset(name for rule in ALL_RULES for name in rule.names_looked_up)

