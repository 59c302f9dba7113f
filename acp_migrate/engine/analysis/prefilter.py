"""The byte prefilter: a file none of the rules' trigger tokens occurs in cannot hold
a legacy pattern, and is done without being parsed (LibCST is not even imported).

The tokens are what the rules declare (`Rule.triggers`, gathered by the registry,
whose import does not import LibCST).
"""

from __future__ import annotations

import functools

from acp_migrate.rules import TRIGGERS

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


GROUPS = _groups(TOKENS)


def last_answer(question):
    """`question(source, *settings)` remembering its answer for the source (and settings)
    it was last asked about: the runner screens a file, then its analysis asks again
    about the same bytes."""
    last: tuple[bytes, tuple, bool] | None = None

    def answer(source: bytes, *settings) -> bool:
        nonlocal last
        if last is None or last[0] is not source or last[1] != settings:
            last = (source, settings, question(source, *settings))  # (held: its id cannot be reused)
        return last[2]

    return functools.wraps(question)(answer)


@last_answer
def may_contain_legacy(source: bytes) -> bool:
    # One `in` per scan: bytes search skips ahead like grep, several times faster than
    # a regex alternation, which tries every token at every byte.
    return any(shared in source and any(token in source for token in members) for shared, members in GROUPS)
