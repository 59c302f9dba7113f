"""The byte prefilter: a file none of the rules' trigger tokens occurs in cannot hold
a legacy pattern, and is done without being parsed (LibCST is not even imported).

The tokens are what the rules declare (`Rule.triggers`, gathered by the registry,
whose import does not import LibCST). A run scans a file for the tokens of the rules its
SDK target keeps (`Rule.sdk_release`; without a target, none of the SDK rules') that
read the file's kind: a document's suffix (Markdown, JSON, ...), or Python for any other.
"""

from __future__ import annotations

import functools

from acp_migrate.rules import ALL_RULES, SUFFIXES, TRIGGERS
from acp_migrate.settings import RuleSettings

TOKENS: tuple[bytes, ...] = TRIGGERS

# A clean file is scanned once per group, not once per token: tokens that share a
# run of bytes (`slash_commands`, `slashCommands`: `ommands`) are looked for only in the
# files that hold it. Nearly every file of a tree is clean, and a scan costs the same
# whatever the token's length.
SHORTEST_SHARED = 6


def _shared(a: bytes, b: bytes) -> bytes | None:
    """The longest run of bytes `a` and `b` share, if it is SHORTEST_SHARED or longer."""
    for size in range(min(len(a), len(b)), SHORTEST_SHARED - 1, -1):
        for start in range(len(a) - size + 1):
            if a[start : start + size] in b:
                return a[start : start + size]
    return None


def _groups(tokens: tuple[bytes, ...]) -> list[tuple[bytes, tuple[bytes, ...]]]:
    groups: list[tuple[bytes, tuple[bytes, ...]]] = []
    for token in tokens:
        for index, (shared, members) in enumerate(groups):
            common = _shared(shared, token)
            if common is not None:
                groups[index] = (common, (*members, token))
                break
        else:
            groups.append((token, (token,)))
    return groups


# `may_contain_legacy`'s SDK target and suffix when the caller has none to give: every rule counts.
EVERY_RULE = "every rule"
PYTHON_SUFFIXES = (".py", ".pyi")
PYTHON = "python"  # the kind of a file whose suffix is no document's


@functools.cache
def rules_in_play(sdk) -> tuple:
    """The rules a run with the SDK target `sdk` (None: none) runs (`Rule.sdk_release`)."""
    settings = RuleSettings(sdk=sdk)
    return tuple(rule for rule in ALL_RULES if settings.crosses(rule.sdk_release))


def _kind(suffix: str) -> str:
    """How the analysis takes a file of `suffix` (codemod.py): a suffix some rule declares
    for documents, as that document; any other, as Python."""
    return suffix if suffix is EVERY_RULE or suffix in SUFFIXES and suffix not in PYTHON_SUFFIXES else PYTHON


def _reads(rule, kind: str) -> bool:
    return kind is EVERY_RULE or any(
        suffix in rule.suffixes for suffix in (PYTHON_SUFFIXES if kind is PYTHON else (kind,))
    )


@functools.cache  # (computed when first asked: grouping every rule's tokens costs 4 ms)
def _groups_in_play(sdk, kind: str) -> list[tuple[bytes, tuple[bytes, ...]]]:
    rules = ALL_RULES if sdk is EVERY_RULE else rules_in_play(sdk)
    return _groups(tuple(dict.fromkeys(token for rule in rules if _reads(rule, kind) for token in rule.triggers)))


def last_answer(question):
    """`question(source, *more)` remembering its answer for the source (and the rest) it
    was last asked about: the runner screens a file, then its analysis asks again about
    the same bytes."""
    last: tuple[bytes, tuple, bool] | None = None

    def answer(source: bytes, *more) -> bool:
        nonlocal last
        if last is None or last[0] is not source or last[1] != more:
            last = (source, more, question(source, *more))  # (held: its id cannot be reused)
        return last[2]

    return functools.wraps(question)(answer)


@last_answer
def may_contain_legacy(source: bytes, sdk=EVERY_RULE, suffix=EVERY_RULE) -> bool:
    """Whether `source`, of a file with `suffix` (lower case), holds a trigger of a rule
    reading that file that a run with the SDK target `sdk` runs (without a target, the
    SDK rules' tokens cost a clean file no scan; a Python file, no document rule's)."""
    groups = _groups_in_play(sdk, _kind(suffix))
    # One `in` per scan: bytes search skips ahead like grep, several times faster than
    # a regex alternation, which tries every token at every byte.
    return any(shared in source and any(token in source for token in members) for shared, members in groups)


def first_trigger(source: bytes, sdk=EVERY_RULE) -> tuple[int, bytes]:
    """The offset and the token of the first trigger in `source` (which holds one) of a
    rule a run with the SDK target `sdk` runs."""
    groups = _groups_in_play(sdk, EVERY_RULE)
    return min((offset, token) for _, members in groups for token in members if (offset := source.find(token)) != -1)
