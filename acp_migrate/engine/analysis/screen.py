"""The screen: between the byte prefilter and LibCST, CPython's own tree of a Python
file says whether a rule could report on it at all.

A trigger token in a docstring, a comment or a longer identifier (`has_slash_commands`)
passes the byte prefilter but is no legacy site. Each rule declares the words a
file it reports on holds as a construct (`Rule.screen_words`): an identifier (a name,
attribute, keyword argument, parameter, definition, import, global) or a `str`
constant equal to one. The screen walks CPython's tree (C-parsed, milliseconds) and
clears a file where no such construct is, so LibCST is neither imported nor run.

A word standing in a context that every triggered rule declaring the word declares
harmless (`Rule.screen_harmless`, from the small vocabulary `rules/base.py` names: `not
hasattr(x, "slash_commands")`, `"slash_commands" not in x`, a key of old JSON given to
`model_validate`, `def slash_commands(...)`, a method's `self.slash_commands`) counts as
none: the assertions of absence and the old-JSON fixtures of a migrated project's
tests, a generated client's helper named like the field.

Exact in one direction only: it may pass a file the rules find clean, never clear one
they would report on (tests/test_screen.py holds this over every golden
input and every file of the repository). It passes what it cannot judge: a rule that
declares no words (ACP007's TODO comment, ACP009's vendored header: CPython's tree
has no comments), a file CPython cannot parse (the analysis gives the error), and one
beyond its bounds (CPython's tree would cost too much memory). Where it passes a file
it says where (`first_site`): a file too large for LibCST is refused naming that line.
"""

from __future__ import annotations

import functools
import os
import re
from typing import NamedTuple

from acp_migrate.engine.analysis.prefilter import last_answer, may_contain_legacy, rules_in_play
from acp_migrate.rules import PYTHON_RULES
from acp_migrate.rules.base import (
    DEFINED_NAME,
    NOT_HASATTR,
    NOT_IN,
    OWN_ATTRIBUTE,
    PARSED_DICT_KEY,
    PARSING_METHODS,
    POPPED_KEY,
)
from acp_migrate.sdk import Target
from acp_migrate.settings import DEFAULT_SETTINGS, RuleSettings


@functools.cache
def _python_rules_in_play(sdk: Target | None) -> tuple:
    return tuple(rule for rule in rules_in_play(sdk) if rule in PYTHON_RULES)


_PARSE_UNIT = re.compile(rb"\w+|[^\w \t\f\r\n]")  # a name, a number, or a character of punctuation


@last_answer  # the screen's bounds, then the parse's, ask about the same file
def parse_cost(source: bytes) -> int:
    """About how many tokens LibCST makes of `source`, a line counting for three (its
    newline token and the line's nodes): what bounds its memory (codemod.MAX_PARSE_COST),
    and CPython's. An upper bound for comments and strings, whose words count as tokens."""
    return _PARSE_UNIT.subn(b"", source)[1] + 3 * source.count(b"\n")


# CPython's tree (the parse and the tree together, at their peak) costs about 235 bytes
# of memory a unit of real code (a 2.5 MB generated client: 886,000 units, 0.2 GB), up
# to 830 a unit of dense code (`a;a;...`: 1.2 million units, 1.0 GB): what a 1.5 GB
# address-space cap allows. A file too large for LibCST is still screened within these
# bounds, so that one holding no legacy site (a generated module with a helper named
# like the field) is no error.
MAX_SCREEN_BYTES = 8 * 1024 * 1024
MAX_SCREEN_COST = 1_200_000


def within_screen_limits(source: bytes) -> bool:
    return len(source) <= MAX_SCREEN_BYTES and costs_at_most(source, MAX_SCREEN_COST)


def costs_at_most(source: bytes, limit: int) -> bool:
    """Whether `parse_cost(source) <= limit`, not counted where the size tells: a unit
    is a byte or more, a newline costs three."""
    return 3 * len(source) <= limit or parse_cost(source) <= limit


class Site(NamedTuple):
    """Where the screen passed a file: a construct (its line, its word) some rule could
    report on; both None where it cannot judge."""

    line: int | None
    word: str | None


UNJUDGED = Site(None, None)


@last_answer
def first_site(source: bytes, sdk: Target | None = None) -> Site | None:
    """The first site the screen meets in `source` of a Python rule the SDK target `sdk`
    keeps whose triggers `source` holds (UNJUDGED where it cannot say), or None: none of
    those rules can report on it."""
    # Each word of the triggered rules, with the contexts in which it is no site of any
    # of them that declares it (a context clears a word only if none reports there).
    harmless: dict[str, frozenset[str]] = {}
    for rule in _python_rules_in_play(sdk):
        if rule.is_candidate(source):
            if rule.screen_words is None:
                return UNJUDGED
            for word in rule.screen_words:
                harmless[word] = harmless[word] & rule.screen_harmless if word in harmless else rule.screen_harmless
    if not harmless:
        return None
    return _word_site(source, harmless) if within_screen_limits(source) else UNJUDGED


def may_report(source: bytes, sdk: Target | None = None) -> bool:
    """False when no Python rule the SDK target `sdk` keeps whose triggers `source`
    holds can report on it."""
    return first_site(source, sdk) is not None


def _word_site(source: bytes, harmless: dict[str, frozenset[str]]) -> Site | None:
    import ast
    import warnings
    from bisect import bisect_left

    try:
        with warnings.catch_warnings():  # `"\d"` and the like: not ours to report
            warnings.simplefilter("ignore")
            tree = compile(source, "<screen>", "exec", dont_inherit=True, flags=ast.PyCF_ONLY_AST)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return UNJUDGED  # the analysis judges, and gives the error
    # Only statements on the lines that spell a word can hold it: a word is ASCII, and a
    # string equal to one written another way needs a backslash (`"slash\x5fcommands"`,
    # a continued line). bytes.splitlines breaks lines where CPython counts them.
    words = set(harmless)
    contexts = frozenset().union(*harmless.values())
    spelled = re.compile(b"|".join(re.escape(word.encode()) for word in sorted(words)) + rb"|\\")
    lines = [number for number, line in enumerate(source.splitlines(), 1) if spelled.search(line)]
    # Every `str` field of every node is an identifier or a constant's value (`Name.id`,
    # `Attribute.attr`, `keyword.arg`, `arg.arg`, `alias.name`, `Constant.value`, ...),
    # and lists of them (`Global.names`, `MatchClass.kwd_attrs`): read generically, no
    # place an identifier can stand is missed. Iterative: a deep tree cannot overflow.
    # Each node goes with its scope (the function or module its names are locals of;
    # None in a class body), and constants in a harmless context are not visited.
    stack: list = [(tree, tree)]
    skipped: set[int] = set()
    seen: dict = {}  # (_only_parsed, _harmless_identifier)
    while stack:
        node, scope = stack.pop()
        if isinstance(node, ast.stmt):
            # (a definition's decorators stand above its first line)
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
            index = bisect_left(lines, first)
            if index == len(lines) or lines[index] > node.end_lineno:
                continue
        if contexts:
            for constant, context in harmless_constants(node, scope, contexts, seen):
                if context in harmless.get(constant.value, ()):
                    skipped.add(id(constant))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            scope = node
        elif isinstance(node, ast.ClassDef):
            scope = None
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, str):
                if value in words and not _harmless_identifier(node, name, scope, harmless[value], tree, seen):
                    return Site(_line(node), value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, str):
                        if item in words:
                            return Site(_line(node), item)
                    elif isinstance(item, ast.AST) and id(item) not in skipped:
                        stack.append((item, scope))
            elif isinstance(value, ast.AST) and id(value) not in skipped:
                stack.append((value, scope))
    return None


def _line(node) -> int:
    import ast

    return node.end_lineno if isinstance(node, ast.Attribute) else node.lineno  # (an attribute's name ends it)


def _harmless_identifier(node, field: str, scope, contexts: frozenset[str], tree, seen: dict) -> bool:
    """Whether the identifier in `field` of `node` (in `scope`, of `tree`) stands in one of
    `contexts`: a definition's name, or a method's own attribute (rules/base.py)."""
    import ast

    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return field == "name" and DEFINED_NAME in contexts
    if isinstance(node, ast.Attribute) and field == "attr" and OWN_ATTRIBUTE in contexts:
        if "own" not in seen:
            seen["own"] = _methods_and_plain_firsts(tree)
        methods, plain = seen["own"]
        value = node.value
        return isinstance(value, ast.Name) and value.id in plain and methods.get(id(scope)) == value.id
    return False


def _methods_and_plain_firsts(tree) -> tuple[dict[int, str], set[str]]:
    """(id of each method -> the name of its first parameter, the names that stand only as
    a method's unannotated first parameter and as names read: nothing else binds them, so
    no inference can make one capabilities). A method: a function in a class body."""
    import ast

    methods: dict[int, str] = {}
    firsts: set[int] = set()  # (the methods' first parameters)
    bound: set[str] = set()
    for node in ast.walk(tree):  # (breadth first: a class before its methods' parameters)
        if isinstance(node, ast.ClassDef):
            for statement in node.body:
                if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    positional = [*statement.args.posonlyargs, *statement.args.args]
                    if positional:
                        methods[id(statement)] = positional[0].arg
                        firsts.add(id(positional[0]))
        # Every identifier binding a name, but the methods' plain first parameters.
        if isinstance(node, ast.Name):
            if not isinstance(node.ctx, ast.Load):
                bound.add(node.id)
        elif isinstance(node, ast.arg):
            if id(node) not in firsts or node.annotation is not None:
                bound.add(node.arg)
        elif not isinstance(node, (ast.Attribute, ast.keyword, ast.Constant)):
            for field in node._fields:
                value = getattr(node, field, None)
                if isinstance(value, str):
                    bound.add(value)
                elif isinstance(value, list):
                    bound.update(item for item in value if isinstance(item, str))
    return methods, set(methods.values()) - bound


def harmless_constants(node, scope, contexts: frozenset[str], seen: dict) -> list:
    """(constant, context) for each `str` constant below `node` that stands in one of
    `contexts` (rules/base.py, SCREEN_CONTEXTS), seen from their parent construct."""
    import ast

    found: list = []
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and NOT_HASATTR in contexts:
        call = node.operand
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id == "hasattr"
            and len(call.args) == 2
            and not call.keywords
            and _is_str(call.args[1])
        ):
            found.append((call.args[1], NOT_HASATTR))
    elif isinstance(node, ast.Compare) and NOT_IN in contexts:
        if len(node.ops) == 1 and isinstance(node.ops[0], ast.NotIn) and _is_str(node.left):
            found.append((node.left, NOT_IN))
    elif isinstance(node, ast.Call) and POPPED_KEY in contexts and _is_popping(node):
        found.append((node.args[0], POPPED_KEY))
    elif isinstance(node, ast.Call) and PARSED_DICT_KEY in contexts:
        if _is_parsing(node):
            dicts = [arg for arg in node.args if isinstance(arg, ast.Dict)]
            while dicts:  # nested in its values too: the rules leave all of an inbound dict alone
                literal = dicts.pop()
                found += [(key, PARSED_DICT_KEY) for key in literal.keys if _is_str(key)]
                dicts += [value for value in literal.values if isinstance(value, ast.Dict)]
    elif isinstance(node, ast.Assign) and PARSED_DICT_KEY in contexts and scope is not None:
        target = node.targets[0]
        if (
            len(node.targets) == 1
            and isinstance(target, ast.Name)
            and isinstance(node.value, ast.Dict)
            and _only_parsed(target, scope, seen)
        ):
            found += [(key, PARSED_DICT_KEY) for key in node.value.keys if _is_str(key)]
    return found


def _is_str(node) -> bool:
    import ast

    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _is_parsing(node) -> bool:
    import ast

    return isinstance(node.func, ast.Attribute) and node.func.attr in PARSING_METHODS


def _is_popping(node) -> bool:
    import ast

    func = node.func
    return isinstance(func, ast.Attribute) and func.attr == "pop" and len(node.args) == 2 and _is_str(node.args[0])


def _only_parsed(target, scope, seen: dict) -> bool:
    """The name `target` binds is given positionally to a parsing method in `scope` (with
    the functions in it), and nothing else there mentions it: no rule follows the dict.
    `seen`: the names of each scope read so far, read once (id of the scope -> them)."""
    if id(scope) not in seen:
        seen[id(scope)] = _names_in(scope)
    mentions, parsed, shared = seen[id(scope)]
    name = target.id
    return name not in shared and parsed[name] >= 1 and mentions[name] == parsed[name] + 1  # (+ the target)


def _names_in(scope) -> tuple:
    """(mentions of each name, those of them given positionally to a parsing method, the
    names shared with another scope or a parameter's) in `scope`."""
    import ast
    from collections import Counter

    mentions: Counter[str] = Counter()
    parsed: Counter[str] = Counter()
    shared: set[str] = set()
    for node in ast.walk(scope):
        if isinstance(node, ast.Name):
            mentions[node.id] += 1
        elif isinstance(node, ast.Call) and _is_parsing(node):
            parsed.update(arg.id for arg in node.args if isinstance(arg, ast.Name))
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            shared.update(node.names)
        elif isinstance(node, ast.arg):
            shared.add(node.arg)
    return mentions, parsed, shared


def needs_libcst(source: bytes, path: str, settings: RuleSettings = DEFAULT_SETTINGS) -> bool:
    """Whether the analysis of `source` may parse it with LibCST: a Python file that the
    byte prefilter and the screen pass for the run's settings (a vendored shim's copy
    too, which it reads without). The runner decides where a file's work runs on it, the
    project decision which files it reads; no result depends on it."""
    return (
        path.lower().endswith((".py", ".pyi"))
        # the analysis asks the same (answered once)
        and may_contain_legacy(source, settings.sdk, os.path.splitext(path)[1].lower())
        and may_report(source, settings.sdk)
    )
