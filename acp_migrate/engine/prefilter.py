"""The byte prefilter: a file none of these tokens occurs in cannot hold a legacy pattern.

Kept apart from the rules so that a clean run never imports LibCST;
tests/test_rules.py checks that every rule's triggers are covered here.
"""

from __future__ import annotations

TOKENS: tuple[bytes, ...] = (b"slash_commands", b"slashCommands", b"acp-migrate: TODO")

# Both spellings of the field end in `ommands`: one scan rules out both in the files
# without it (nearly all; a scan costs the same whatever the token's length).
_SHARED = b"ommands"
_SPELLINGS = (b"slash_commands", b"slashCommands")
_OTHERS = tuple(token for token in TOKENS if token not in _SPELLINGS)


def may_contain_legacy(source: bytes) -> bool:
    # One `in` per token: bytes search skips ahead like grep, several times faster than
    # a regex alternation, which tries every token at every byte.
    if _SHARED in source and any(token in source for token in _SPELLINGS):
        return True
    return any(token in source for token in _OTHERS)
