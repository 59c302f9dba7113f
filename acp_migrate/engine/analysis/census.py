"""The census: every mention of a legacy word a file still holds once the rules are done
is explained, or reported. Exit 0 means none is left unexplained.

A census rule (`Rule.census`) declares the words (`screen_words`), the files
(`suffixes`) and the contexts in which a word is no site (`screen_harmless`, the
screen's vocabulary: an absence assertion, old JSON given to `model_validate`, a
client stripping the key from an old agent's answer). The census lists the mentions
of those words in one file, drops those standing on a line another finding covers (a
rule is already saying something there) and reports the rest as the census rule's
finding, not fixable (in `fix`, at the lines of the file as read, like all fix leaves;
a file fix wrote is judged again on the read-back, `engine/execution/postcondition.py`).

A mention is what can carry the field where no other rule reads it: in a Python
module (the other rules judge its code) a doctest line and a dump splatted into the
capabilities from a model declaring the field (here or in a module it imports); in a
notebook's code cells and the Python blocks of Markdown and reST, a keyword argument,
an attribute, a `str` constant equal to a word, a field declared in a class body; in
JSON, YAML and snapshot files (`.ambr`) every line holding a word. Prose, comments and
a project's own variable names are not: they describe, they carry nothing.

It runs on CPython's tree, never LibCST, and only on a file holding a trigger token.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import NamedTuple

from acp_migrate.documents import FENCE, RST_CODE
from acp_migrate.engine.analysis.screen import harmless_constants


class Mention(NamedTuple):
    """Where a mention is (1-based), and what it is when its line does not show it."""

    line: int
    column: int
    end_column: int
    note: str = ""


# A splat carrying the list (`_unseen`).
SPLAT_NOTE = "a model declaring the field is splatted here, so its list is still advertised at initialize"
# The source of a module (dotted, relative with leading dots) the file imports, or None.
Imported = Callable[[str], "bytes | None"]

_MARKDOWN = (".md", ".markdown")
_RST = (".rst",)
_PYTHON = (".py", ".pyi")
_NOTEBOOK = (".ipynb",)
_PYTHON_INFOS = frozenset({"python", "py", "python3", "pycon", "ipython", "pyi"})
_DOCTEST = re.compile(r"^[ \t]*(?:>>>|\.\.\.)")
# IPython's magics and shell escapes: blanked before a notebook cell is parsed.
_MAGIC = re.compile(r"^[ \t]*[%!]")


def census_mentions(
    text: str,
    suffix: str,
    words: frozenset[str],
    harmless: frozenset[str],
    splats: frozenset[str],
    imported: Imported = lambda name: None,
) -> list[Mention]:
    """The mentions of `words` in the document `text` of kind `suffix`, less those in
    `harmless` contexts; in a Python module, splats of a dump into one of `splats` of a
    model declaring a word (`imported`: the source of a module it imports, or None)."""
    pattern = _word_pattern(words)
    if suffix in _PYTHON:  # the rules read its code: the census, what they cannot see
        if ">>>" not in text and not ("**" in text and any(name in text for name in splats)):
            return []  # no doctest, no splat into one of `splats`: no tree to build
        return _python(text, pattern, words, harmless, 0, splats=splats, imported=imported)
    if suffix in _NOTEBOOK:
        return _notebook(text, pattern, words, harmless)
    if suffix in _MARKDOWN or suffix in _RST:
        return _blocks(text, suffix, pattern, words, harmless)
    return _lines(text.splitlines(), pattern, 0)


def uncovered(mentions: Iterable[Mention], covered: Iterable[tuple[int, int]]) -> list[Mention]:
    """The mentions on no line of the (first, last) line ranges `covered`."""
    lines = {line for first, last in covered for line in range(first, last + 1)}
    return [mention for mention in mentions if mention[0] not in lines]


def _word_pattern(words: frozenset[str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(word) for word in sorted(words))
    return re.compile(rf"(?<![A-Za-z0-9_])(?:{alternatives})(?![A-Za-z0-9_])")


def _lines(lines: list[str], pattern: re.Pattern[str], offset: int) -> list[Mention]:
    """Every line holding a word, at its first one (a data file, a block not Python)."""
    found = []
    for number, line in enumerate(lines, offset + 1):
        match = pattern.search(line)
        if match is not None:
            found.append(Mention(number, match.start() + 1, match.end() + 1))
    return found


def _python(
    text: str,
    pattern,
    words,
    harmless,
    offset: int,
    splats: frozenset[str] | None = None,
    imported: Imported | None = None,
) -> list[Mention]:
    """The mentions in Python source `text` whose line 1 is line `offset + 1` of the file;
    source CPython cannot read (a sketch, newer syntax) counts line by line. With
    `splats` (a module the rules read), only what no rule sees: doctests, and splats
    (`_unseen`)."""
    import ast
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = compile(text, "<census>", "exec", dont_inherit=True, flags=ast.PyCF_ONLY_AST)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        # A module the rules read: their analysis reports the error.
        return _lines(text.splitlines(), pattern, offset) if splats is None else []
    if splats is not None:
        return _unseen(tree, pattern, words, offset, splats, imported)
    found: list[Mention] = []
    skipped: set[int] = set()
    seen: dict = {}
    stack: list = [(tree, tree)]
    while stack:  # as the screen walks (screen.py): each node with its scope
        node, scope = stack.pop()
        if harmless:
            for constant, context in harmless_constants(node, scope, harmless, seen):
                if constant.value in words:
                    skipped.add(id(constant))
        found += _node_mentions(node, pattern, words, skipped)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            scope = node
        elif isinstance(node, ast.ClassDef):
            scope = None
        stack += [(child, scope) for child in ast.iter_child_nodes(node)]
    return _shifted(found, offset)


def _unseen(tree, pattern, words, offset: int, splats: frozenset[str], imported: Imported) -> list[Mention]:
    """In a module the rules read: its doctests, and each dump splatted into one of
    `splats` (`AgentCapabilities(**settings.model_dump())`) where this module or one it
    imports declares a field named by a word: the list flows through the splat."""
    import ast

    found = []
    splatted = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and ">>>" in node.value:
            found += _node_mentions(node, pattern, words, set())
        elif isinstance(node, ast.Call) and _called_name(node.func) in splats:
            splatted += [k.value for k in node.keywords if k.arg is None and not isinstance(k.value, ast.Dict)]
    if splatted and (
        _declares_field(tree, words)
        or any(_declares_field(_tree_of(imported(name), words), words) for name in _imports(tree))
    ):
        # from the `**`
        found += [(value.lineno, value.col_offset - 1, value.end_col_offset + 1, SPLAT_NOTE) for value in splatted]
    return _shifted(found, offset)


def _shifted(found: list, offset: int) -> list[Mention]:
    """The mentions `found` in a text whose line 1 is line `offset + 1` of the file, once each, in order."""
    return sorted({Mention(*mention)._replace(line=mention[0] + offset) for mention in found})


def _declares_field(tree, words) -> bool:
    """Whether a class of `tree` (None: no module) declares a field named by a word."""
    import ast

    return tree is not None and any(
        isinstance(node, ast.ClassDef) and _node_mentions(node, None, words, set()) for node in ast.walk(tree)
    )


def _tree_of(source: bytes | None, words):
    """CPython's tree of an imported module's `source`, if it holds a word at all."""
    import ast

    if source is None or not any(word.encode() in source for word in words):
        return None
    try:
        return compile(source, "<census>", "exec", dont_inherit=True, flags=ast.PyCF_ONLY_AST)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _imports(tree) -> list[str]:
    """The modules `tree` imports, relative ones with their leading dots."""
    import ast

    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            dots = "." * node.level
            names += [dots + node.module] if node.module else [dots + alias.name for alias in node.names]
    return names


def _called_name(func) -> str | None:
    import ast

    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _node_mentions(node, pattern, words, skipped: set[int]) -> list[Mention]:
    import ast

    if isinstance(node, ast.keyword) and node.arg in words:
        return [(node.lineno, node.col_offset + 1, node.col_offset + 1 + len(node.arg))]
    if isinstance(node, ast.Attribute) and node.attr in words:
        return [(node.end_lineno, node.end_col_offset + 1 - len(node.attr), node.end_col_offset + 1)]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if node.value in words:
            return [] if id(node) in skipped else [(node.lineno, node.col_offset + 1, node.end_col_offset + 1)]
        if ">>>" in node.value:  # a doctest: its lines, counted from the string's first
            return [
                (node.lineno + index, 1, 1)
                for index, line in enumerate(node.value.splitlines())
                if _DOCTEST.match(line) and pattern.search(line)
            ]
        return []
    if isinstance(node, ast.ClassDef):  # a declared field: `slash_commands: list[...] = []`
        targets = [s.target for s in node.body if isinstance(s, ast.AnnAssign)]
        targets += [t for s in node.body if isinstance(s, ast.Assign) for t in s.targets]
        return [
            (t.lineno, t.col_offset + 1, t.end_col_offset + 1)
            for t in targets
            if isinstance(t, ast.Name) and t.id in words
        ]
    return []


def _blocks(text: str, suffix: str, pattern, words, harmless) -> list[Mention]:
    """The mentions in the Python blocks of a Markdown or reST document (its JSON blocks and
    prose are the document rules')."""
    lines = text.splitlines()
    found: list[Mention] = []
    for first, body, language in _code_blocks(lines, suffix):
        block = "\n".join(body)
        if not pattern.search(block):
            continue
        if language in _PYTHON_INFOS:
            found += _python(_dedent(block), pattern, words, harmless, first)
    return found


def _code_blocks(lines: list[str], suffix: str):
    """(index of the block's first line, its lines, its language) of each code block."""
    index = 0
    while index < len(lines):
        line = lines[index]
        fence = FENCE.match(line) if suffix in _MARKDOWN else None
        directive = RST_CODE.match(line) if suffix in _RST else None
        if fence is not None:
            end = index + 1
            while end < len(lines) and not lines[end].strip().startswith(fence["fence"]):
                end += 1
            yield index + 1, lines[index + 1 : end], fence["info"].split()[0].lower() if fence["info"].strip() else ""
            index = end + 1
        elif directive is not None or (suffix in _RST and line.rstrip().endswith("::")):
            indent = len(directive["indent"]) if directive is not None else len(line) - len(line.lstrip())
            end = index + 1
            while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent):
                end += 1
            language = directive["info"].lower() if directive is not None else ""
            yield index + 1, lines[index + 1 : end], language
            index = end
        else:
            index += 1


def _dedent(block: str) -> str:
    import textwrap

    # A reST block's options (`:linenos:`) stand where code would: blank them, keeping lines.
    return textwrap.dedent("\n".join("" if line.strip().startswith(":") else line for line in block.splitlines()))


def _notebook(text: str, pattern, words, harmless) -> list[Mention]:
    """The mentions in a notebook's code cells, at the file's lines holding them."""
    import json

    try:
        cells = json.loads(text).get("cells", [])
    except (ValueError, AttributeError):
        return _lines(text.splitlines(), pattern, 0)
    file_lines = text.splitlines()
    cursor = 0
    found: list[Mention] = []
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        cell_lines = source.splitlines()
        blanked = "\n".join("" if _MAGIC.match(line) else line for line in cell_lines)
        for line, *_ in _python(blanked, pattern, words, harmless, 0):
            # The file's line: the next one spelling this source line as JSON does.
            spelled = json.dumps(cell_lines[line - 1])[1:-1]
            for number in range(cursor, len(file_lines)):
                column = file_lines[number].find(spelled)
                if column != -1 and pattern.search(file_lines[number]):
                    match = pattern.search(file_lines[number], column)
                    found.append(Mention(number + 1, match.start() + 1, match.end() + 1))
                    cursor = number + 1
                    break
    return found
