"""The byte prefilter: a file none of the rules' trigger tokens occurs in cannot hold
a legacy pattern, and is done without being parsed (LibCST is not even imported).

The tokens are what the rules declare (`Rule.triggers`, gathered by the registry,
whose import does not import LibCST).
"""

from __future__ import annotations

from acp_migrate.rules import TRIGGERS

TOKENS: tuple[bytes, ...] = TRIGGERS


def may_contain_legacy(source: bytes) -> bool:
    # One `in` per token: bytes search skips ahead like grep, several times faster than
    # a regex alternation, which tries every token at every byte. (30 MB of clean files:
    # 46 ms, 1.3x the 35 ms of a version hand-tuned to the four tokens of 0.2.0.)
    return any(token in source for token in TOKENS)
