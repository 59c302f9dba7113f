"""The byte prefilter: a file none of these tokens occurs in cannot hold a legacy pattern.

Kept apart from the rules so that a clean run never imports LibCST;
tests/test_rules.py checks that every rule's triggers are covered here.
"""

from __future__ import annotations

TOKENS: tuple[bytes, ...] = (b"slash_commands", b"slashCommands", b"acp-migrate: TODO")


def may_contain_legacy(source: bytes) -> bool:
    # One `in` per token: bytes search skips ahead like grep, several times faster than
    # a regex alternation, which tries every token at every byte.
    return any(token in source for token in TOKENS)
