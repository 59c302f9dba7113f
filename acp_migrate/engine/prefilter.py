"""The byte prefilter: a file none of these tokens occurs in cannot hold a legacy pattern.

Kept apart from the rules so that a clean run never imports LibCST;
tests/test_rules.py checks that every rule's triggers are covered here.
"""

from __future__ import annotations

TOKENS: tuple[bytes, ...] = (
    b"slash_commands",
    b"slashCommands",
    b"acp-migrate: TODO",
    b"acp-migrate: vendored runtime",  # the vendored shim's header (ACP009)
)

# Both spellings of the field end in `ommands`: one scan rules out both in the files
# without it (nearly all; a scan costs the same whatever the token's length).
_SHARED = b"ommands"
_SNAKE, _CAMEL, _TODO, _VENDORED = TOKENS
_OURS = b"acp-migrate: "


def may_contain_legacy(source: bytes) -> bool:
    # One `in` per token: bytes search skips ahead like grep, several times faster than
    # a regex alternation, which tries every token at every byte. (Spelled out: this
    # runs once per file of the tree.)
    return (_SHARED in source and (_SNAKE in source or _CAMEL in source)) or (
        _OURS in source and (_TODO in source or _VENDORED in source)
    )
