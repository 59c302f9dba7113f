"""What a codemod rule is: its declarations, and the reports and edits it makes (what
every rule declares, wire rules too, and its examples: `acp_migrate/rulebook.py`).

A rule is a class with LibCST-style `visit_<Node>` / `leave_<Node>` methods. The
engine runs every rule in one traversal; rules never edit the tree themselves, they
`report` findings and register edits on their `FileContext` (`rules/context.py`),
which the engine applies once.

Nothing here imports LibCST: the registry imports every rule at start-up, to read
their declarations (the prefilter's tokens, the codes `select` accepts), also for a
run that parses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from acp_migrate.rulebook import Example as Example  # the rule modules' examples
from acp_migrate.rulebook import RuleBase

# What a rule makes: in its own module, which `FileContext` records without this one.
from acp_migrate.rules.edits import Edits as Edits
from acp_migrate.rules.edits import Report as Report

if TYPE_CHECKING:
    import ast

    from acp_migrate.rules.context import FileContext
    from acp_migrate.settings import RuleSettings


# What the screen (engine/analysis/screen.py) knows of where a word stands in CPython's
# tree, for `Rule.screen_harmless`; `word` is a `str` constant equal to a screen word,
# or an identifier where the context says so.
# `not hasattr(x, "word")`: hasattr's 2nd of exactly two positional arguments, the operand of `not`.
NOT_HASATTR = "not hasattr"
# `"word" not in x`: the left of a comparison whose only operator is `not in`.
NOT_IN = "not in"
# `X.model_validate({"word": ...})` (or `model_validate_json`): a key of a dict literal
# given positionally, or of a dict literal nested in its values; or a key of `name =
# {"word": ...}` (not nested) where `name` is such an argument and every other mention
# of it in its function (or, at module level, the module) is too.
PARSED_DICT_KEY = "parsed dict key"
PARSING_METHODS = frozenset({"model_validate", "model_validate_json"})
# `x.pop("word", default)`: a client or proxy stripping the key from an old agent's answer.
POPPED_KEY = "popped key"
# `def word(...)`, `class word`: the name a definition gives (an identifier, not a constant).
DEFINED_NAME = "defined name"
# `self.word` in a method: an attribute of its first parameter, a name that nothing in
# the module binds or annotates but the methods' first parameters (so no value inference
# can make it capabilities): a server's or a client's own attribute.
OWN_ATTRIBUTE = "own attribute"
SCREEN_CONTEXTS = frozenset({NOT_HASATTR, NOT_IN, PARSED_DICT_KEY, POPPED_KEY, DEFINED_NAME, OWN_ATTRIBUTE})
# Where the rules that set or read the removed field (ACP001-ACP005, ACP008) find no site of it.
NO_FIELD_SITE = frozenset({NOT_HASATTR, NOT_IN, PARSED_DICT_KEY, DEFINED_NAME, OWN_ATTRIBUTE})


class Rule(RuleBase):
    """One legacy pattern. The engine reads only these declarations (and `RuleBase`'s:
    code, name, summary, fixable, examples) before a file is parsed, and never names a
    rule: the registry (`rules/__init__.py`) finds them."""

    # Byte strings one of which every file this rule can report on contains: a file
    # holding none is not a candidate for it (the byte prefilter is their union).
    triggers: ClassVar[tuple[bytes, ...]] = ()
    # Words every file this rule reports on holds as a construct, in CPython's tree: an
    # identifier (name, attribute, keyword, parameter, definition, import) or a `str`
    # constant equal to one. The screen (engine/analysis/screen.py) clears a candidate
    # holding none without LibCST. None: the screen cannot judge for this rule (what it
    # reports is not in that tree: a comment), so its triggers alone decide.
    screen_words: ClassVar[frozenset[str] | None] = None
    # Contexts (SCREEN_CONTEXTS, above) in which a word of `screen_words` is no site of
    # this rule: the screen passes a file only for a word standing outside every context
    # that all the triggered rules declaring the word declare here.
    screen_harmless: ClassVar[frozenset[str]] = frozenset()
    # Names the rule looks up in a file's imports though the file's code need not
    # mention them: check's hollowing keeps the imports binding them.
    names_looked_up: ClassVar[frozenset[str]] = frozenset()
    # File suffixes the rule reads. Python rules visit the CST; a rule for other
    # documents instead defines `find(text, suffix) -> [(line, column, end_column,
    # message, edits)]`, edits being (start, end, replacement) offsets in the text
    # (none: fix leaves it).
    suffixes: ClassVar[tuple[str, ...]] = (".py", ".pyi")
    # Whether the rule reads vendored copies of the runtime shim, which no other rule
    # reads: it defines `check_vendored(source, style) -> (message, the bytes fix writes, or
    # None when fix must leave the file) | None`.
    reads_vendored: ClassVar[bool] = False
    # Names (fnmatch patterns, any case) of files or folders the rule leaves alone though
    # it reads their suffix: a text rule's historical documents (`rfcs`, `CHANGELOG*`).
    skipped_names: ClassVar[tuple[str, ...]] = ()
    # Whether the rule claims code (`FileContext.claim`): it then runs though deselected,
    # its reports dropped as any deselected rule's, so that ignoring it never makes other
    # rules report in the code it owns.
    claims: ClassVar[bool] = False
    # A census rule: once the other rules are done, the engine (engine/analysis/census.py)
    # lists the mentions of its `screen_words` in a file of its `suffixes`, less those in
    # its `screen_harmless` contexts and those on a line another finding covers, and
    # reports each as its finding (its `summary`, not fixable). It defines no method.
    census: ClassVar[bool] = False
    # For a rule whose findings are tests of the legacy behaviour: bytes marking code that
    # has left it (the migrated form). A `fix` run that migrates code, or whose files hold
    # a mark, names such tests lying outside it (exit 1): they would fail.
    tests_behaviour: ClassVar[tuple[bytes, ...]] = ()
    # For a census rule: classes a model's dump splatted into (`AgentCapabilities(**x.model_dump())`)
    # carries the words through: the fields of the splatting module's classes count.
    census_splats: ClassVar[frozenset[str]] = frozenset()
    # Names (fnmatch patterns) of the only files of its suffixes the rule reads, which a
    # folder walk picks up only when the configuration asks for them (`pyproject.toml`,
    # `requirements*.txt`: ACP200, with an SDK target). Empty: every file of its suffixes.
    file_names: ClassVar[tuple[str, ...]] = ()
    # The SDK release (`agent-client-protocol`) whose change the rule moves code across,
    # or the releases whose changes (ACP220: each reorder of positional parameters): it
    # runs only when the run's target crosses one (`RuleSettings.crosses`). None: not an
    # SDK move (the slash-command rules), it always runs.
    sdk_release: ClassVar[str | tuple[str, ...] | None] = None
    # Bytes marking a file another file's analysis may need read (an agent's factory in
    # the module serving it): a run that decides for the project reads every file of the
    # project holding one, selected or not, and hands the rule's `gather(context)` its
    # tree. It returns (node, key, text): `FileContext.gathered` in every file then holds
    # them, `node` given as the file's `path:line`. `may_gather(tree)`, on CPython's
    # tree, spares LibCST's parse of a file where it would find nothing.
    gathers: ClassVar[tuple[bytes, ...]] = ()

    def __init_subclass__(cls, **keywords: object) -> None:
        super().__init_subclass__(**keywords)
        if "example_path" not in vars(cls):  # an example stands for a file the rule reads
            cls.example_path = f"example{cls.suffixes[0]}"

    def __init__(self, context: FileContext) -> None:
        self.context = context

    @staticmethod
    def may_gather(tree: ast.Module) -> bool:  # a rule that gathers may screen on it
        return True

    @classmethod
    def runs_with(cls, settings: RuleSettings) -> bool:
        """Whether `settings` select the rule and its SDK move, if any, is the run's."""
        return settings.enabled(cls.code) and settings.crosses(cls.sdk_release)

    @classmethod
    def is_candidate(cls, source: bytes) -> bool:
        return any(token in source for token in cls.triggers)

    @classmethod
    def reads_path(cls, path: str) -> bool:
        if not cls.skipped_names and not cls.file_names:
            return True
        import fnmatch
        import re

        parts = [part.lower() for part in re.split(r"[\\/]+", path) if part]
        if cls.file_names and not any(fnmatch.fnmatchcase(parts[-1], name) for name in cls.file_names):
            return False
        return not any(fnmatch.fnmatchcase(part, name.lower()) for part in parts for name in cls.skipped_names)

    @classmethod
    def find_in(cls, text: str, suffix: str, settings: RuleSettings) -> list:
        """A document rule's findings in `text` (its `find`); a rule whose findings depend
        on the run's settings (ACP200: the SDK target) overrides this instead."""
        return cls.find(text, suffix)  # type: ignore[attr-defined]
