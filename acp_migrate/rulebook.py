"""The one rule system of both families: the codemod's rules (`acp_migrate/rules/`,
ACP001...), which judge source, and the probe's wire rules (`acp_migrate/probe/checks/`,
ACP101...), which judge what a running agent sends.

A rule is one module `acpNNN_<name>.py` of its family's package, defining one class of
the family's base (`rules.base.Rule`, `probe.checks.WireRule`), both `RuleBase`s. The
module's docstring is the rule's documentation; the class declares `code`, `name`,
`summary`, `fixable` and `examples` (`Example`s, which the tests run). `find_rules`
finds them; nothing lists them by hand. `select`/`ignore` resolve the same way for
both (`resolve_selection`): by code, prefix or ALL, the most specific selector
winning, `ignore` a tie.

Standard library only: the probe imports this and nothing of the codemod.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, TypeVar

RULE_MODULE = re.compile(r"acp\d{3}_\w+")
ALL = "ALL"
LANGUAGES = {".md": "markdown", ".markdown": "markdown", ".rst": "rst", ".jsonl": "text"}


@dataclass(frozen=True, slots=True)
class Example:
    """What a rule's documentation shows and the tests run: `before` (source, or for a
    wire rule the frames, `-> ` / `<- ` a line), whether the rule reports it (`flagged`),
    `after`: what `fix` makes of it (None: unchanged), `resolved`: for a finding `fix`
    leaves to a person, what that person writes (never `fix`'s output; the tests check
    that no rule reports it), and `path`: the file it stands for (None: the rule's own
    `example_path`). An SDK rule's example moves a project whose requirement on the SDK
    admits `written_for` first (None: it states none) to `target_sdk`."""

    before: str
    after: str | None = None
    flagged: bool = True
    path: str | None = None
    resolved: str | None = None
    target_sdk: str | None = None
    written_for: str | None = None

    @property
    def suffix(self) -> str:
        return os.path.splitext(self.path or "")[1]

    @property
    def language(self) -> str:
        """The fence's language where the documentation shows it."""
        return LANGUAGES.get(self.suffix, "python")


class RuleBase:
    """What every rule declares, whatever it judges."""

    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    fixable: ClassVar[bool] = False
    examples: ClassVar[tuple[Example, ...]] = ()
    # The file an example that names none stands for (its suffix picks the language).
    example_path: ClassVar[str] = "example.py"
    # Its module's docstring, set when the class is defined.
    documentation: ClassVar[str] = ""

    def __init_subclass__(cls, **keywords: object) -> None:
        super().__init_subclass__(**keywords)
        cls.documentation = inspect.cleandoc(sys.modules[cls.__module__].__doc__ or "")


R = TypeVar("R", bound=RuleBase)


def find_rules(package: str, path: Iterable[str], base: type[R]) -> tuple[type[R], ...]:
    """The `base` subclass each `acpNNN_*` module of `package` (at `path`) defines, by code."""
    found = []
    for module_info in pkgutil.iter_modules(path):
        if not RULE_MODULE.fullmatch(module_info.name):
            continue
        module = importlib.import_module(f"{package}.{module_info.name}")
        rules = [
            value
            for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, base) and value.__module__ == module.__name__
        ]
        if len(rules) != 1:
            raise TypeError(
                f"{module.__name__} defines {len(rules)} {base.__name__} subclasses; a rule module defines one"
            )
        found.append(rules[0])
    return tuple(sorted(found, key=lambda rule: rule.code))


@dataclass(slots=True)
class RuleInfo:
    """A rule's documentation, from its own module: what `acp-migrate rules CODE` shows.
    Each example names the file it stands for."""

    code: str
    name: str
    summary: str
    fixable: bool
    documentation: str
    examples: list[Example] = field(default_factory=list)

    @classmethod
    def of(cls, rule: Any) -> RuleInfo:
        """`rule`: a rule's class, or what declares the same (the engine's own ACP100)."""
        examples = [replace(e, path=e.path or rule.example_path) for e in rule.examples]
        return cls(rule.code, rule.name, rule.summary, rule.fixable, rule.documentation.strip(), examples)


# -- selection ------------------------------------------------------------------------


def specificity(selector: str, code: str) -> int:
    """How closely `selector` matches `code`: -1 not at all, 0 for ALL, else its length."""
    if selector == ALL:
        return 0
    return len(selector) if code.startswith(selector) else -1


def _best(selectors: Sequence[str], code: str) -> int:
    return max((specificity(s, code) for s in selectors), default=-1)


def resolve_selection(
    select: Sequence[str] | None, ignore: Sequence[str], known: Iterable[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(codes to run, codes not to run) of `known` from selectors (upper-case codes,
    prefixes, ALL), as ruff resolves them: a code follows the most specific selector
    matching it, and `ignore` wins a tie. No `select`: every code is selected (the
    first tuple is empty)."""
    if not select and not ignore:
        return (), ()
    known = sorted(known)
    selected = tuple(code for code in known if _best(select, code) >= 0) if select else ()
    ignored = tuple(
        code for code in known if (level := _best(ignore, code)) >= 0 and level >= _best(select or [ALL], code)
    )
    return selected, ignored


def enabled_codes(known: Iterable[str], select: Sequence[str] | None = None, ignore: Sequence[str] = ()) -> list[str]:
    """The codes of `known` that `select` (default ALL) and `ignore` leave, in order."""
    known = sorted(known)
    selected, ignored = resolve_selection(select, ignore, known)
    return [code for code in known if (not select or code in selected) and code not in ignored]


def unknown_selectors(selectors: Sequence[str], known: Iterable[str]) -> list[str]:
    """The selectors that select none of `known`."""
    known = list(known)
    return [s for s in selectors if not any(specificity(s, code) >= 0 for code in known)]
