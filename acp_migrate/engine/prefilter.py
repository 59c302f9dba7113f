"""The byte prefilter: a file none of these tokens occurs in cannot hold a legacy pattern.

Kept apart from the rules so that a clean run never imports LibCST;
tests/test_rules.py checks that every rule's triggers are covered here.
"""

from __future__ import annotations

import re

TOKENS: tuple[bytes, ...] = (b"slash_commands", b"slashCommands", b"acp-migrate: TODO")
_ANY_TOKEN = re.compile(b"|".join(re.escape(token) for token in TOKENS))


def may_contain_legacy(source: bytes) -> bool:
    return _ANY_TOKEN.search(source) is not None
