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
`model_validate`) counts as none: the assertions of absence and the old-JSON fixtures
of a migrated project's tests.

Exact in one direction only: it may pass a file the rules find clean, never clear one
they would report on (tests/test_screen.py holds this over every golden
input and every file of the repository). It passes what it cannot judge: a rule that
declares no words (ACP007's TODO comment, ACP009's vendored header: CPython's tree
has no comments), and a file CPython cannot parse (the analysis gives the error).
"""

from __future__ import annotations

import functools

from acp_migrate.engine.analysis.prefilter import last_answer, may_contain_legacy, rules_in_play
from acp_migrate.rules.base import NOT_HASATTR, NOT_IN, PARSED_DICT_KEY, PARSING_METHODS
from acp_migrate.sdk import Target
from acp_migrate.settings import DEFAULT_SETTINGS, RuleSettings


@functools.cache
def _python_rules_in_play(sdk: Target | None) -> tuple:
    return tuple(rule for rule in rules_in_play(sdk) if ".py" in rule.suffixes)


@last_answer
def may_report(source: bytes, sdk: Target | None = None) -> bool:
    """False when no Python rule the SDK target `sdk` keeps whose triggers `source`
    holds can report on it."""
    # Each word of the triggered rules, with the contexts in which it is no site of any
    # of them that declares it (a context clears a word only if none reports there).
    harmless: dict[str, frozenset[str]] = {}
    for rule in _python_rules_in_play(sdk):
        if rule.is_candidate(source):
            if rule.screen_words is None:
                return True
            for word in rule.screen_words:
                harmless[word] = harmless[word] & rule.screen_harmless if word in harmless else rule.screen_harmless
    return bool(harmless) and _holds_word(source, harmless)


def _holds_word(source: bytes, harmless: dict[str, frozenset[str]]) -> bool:
    import ast
    import warnings
    from bisect import bisect_left

    try:
        with warnings.catch_warnings():  # `"\d"` and the like: not ours to report
            warnings.simplefilter("ignore")
            tree = compile(source, "<screen>", "exec", dont_inherit=True, flags=ast.PyCF_ONLY_AST)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True  # the analysis judges, and gives the error
    # Only statements on the lines that spell a word can hold it: a word is ASCII, and a
    # string equal to one written another way needs a backslash (`"slash\x5fcommands"`,
    # a continued line). bytes.splitlines breaks lines where CPython counts them.
    words = set(harmless)
    contexts = frozenset().union(*harmless.values())
    spelled = [word.encode() for word in words]
    lines = [
        number
        for number, line in enumerate(source.splitlines(), 1)
        if b"\\" in line or any(word in line for word in spelled)
    ]
    # Every `str` field of every node is an identifier or a constant's value (`Name.id`,
    # `Attribute.attr`, `keyword.arg`, `arg.arg`, `alias.name`, `Constant.value`, ...),
    # and lists of them (`Global.names`, `MatchClass.kwd_attrs`): read generically, no
    # place an identifier can stand is missed. Iterative: a deep tree cannot overflow.
    # Each node goes with its scope (the function or module its names are locals of;
    # None in a class body), and constants in a harmless context are not visited.
    stack: list = [(tree, tree)]
    skipped: set[int] = set()
    seen: dict = {}  # (_only_parsed)
    while stack:
        node, scope = stack.pop()
        if isinstance(node, ast.stmt):
            # (a definition's decorators stand above its first line)
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
            index = bisect_left(lines, first)
            if index == len(lines) or lines[index] > node.end_lineno:
                continue
        if contexts:
            for constant, context in _harmless_constants(node, scope, contexts, seen):
                if context in harmless.get(constant.value, ()):
                    skipped.add(id(constant))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            scope = node
        elif isinstance(node, ast.ClassDef):
            scope = None
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, str):
                if value in words:
                    return True
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, str):
                        if item in words:
                            return True
                    elif isinstance(item, ast.AST) and id(item) not in skipped:
                        stack.append((item, scope))
            elif isinstance(value, ast.AST) and id(value) not in skipped:
                stack.append((value, scope))
    return False


def _harmless_constants(node, scope, contexts: frozenset[str], seen: dict) -> list:
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
        and may_contain_legacy(source, settings.sdk)
        and may_report(source, settings.sdk)
    )
