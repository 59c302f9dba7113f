"""Globs for paths in a tree, as `include`/`exclude` and `test-files` spell them: a name
pattern (`*.py`, `build/`) matches an entry's last part, a pattern with a `/` is anchored
at the root (`src/**/gen_*.py`), a trailing `/` matches folders only."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Sequence


class GlobSet:
    """Compiled include/exclude globs (see the module docstring for the syntax)."""

    def __init__(self, patterns: Sequence[str]) -> None:
        names: list[str] = []
        dir_names: list[str] = []  # `name/`: matches folders only
        self._anchored: list[tuple[Glob, bool]] = []  # (regex, folders only)
        for raw in patterns:
            pattern = raw.strip()
            if pattern.startswith("./"):
                pattern = pattern[2:]
            dir_only = pattern.endswith("/")
            pattern = pattern.rstrip("/")
            if not pattern:
                continue
            if "/" in pattern:
                self._anchored.append((glob_regex(pattern.lstrip("/")), dir_only))
            else:
                (dir_names if dir_only else names).append(pattern)
        # One regex per kind: the walk asks about every entry of the tree.
        self._names = _any_name(names)
        self._dir_names = _any_name([*names, *dir_names])
        self.anchored = bool(self._anchored)

    def matches_name(self, name: str, *, is_dir: bool) -> bool:
        return (self._dir_names if is_dir else self._names).match(name) is not None

    def matches(self, relative: str, *, is_dir: bool) -> bool:
        """`relative`: a root-relative path with `/`. Name patterns match its last part."""
        if self.matches_name(relative.rsplit("/", 1)[-1], is_dir=is_dir):
            return True
        return any(regex.fullmatch(relative) for regex, dir_only in self._anchored if is_dir or not dir_only)


def _any_name(patterns: Sequence[str]) -> re.Pattern[str]:
    if not patterns:
        return re.compile(r"(?!)")  # matches nothing
    return re.compile("|".join(f"(?:{fnmatch.translate(pattern)})" for pattern in patterns))


class Glob:
    """An anchored glob matched in linear time: a set of positions in the pattern walks
    the path once (a regex of `**/**/...` backtracks exponentially: 25 never end)."""

    __slots__ = ("_regex", "_tokens", "pattern")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._tokens = _glob_tokens(pattern)
        # With at most two stars a regex costs at most the square of the path: the walk's
        # common patterns (`docs/**/*.md`) keep its speed.
        stars = sum(kind in (_STAR, _ANY_DEPTH, _SLASHES) for kind, _ in self._tokens)
        self._regex = _regex(self._tokens) if stars <= 2 else None

    def fullmatch(self, path: str) -> bool:
        if self._regex is not None:
            return self._regex.fullmatch(path) is not None
        tokens = self._tokens
        end = len(tokens)
        # A state is (token index, inside): `inside` only for `**/` that has consumed a
        # part of a folder's name and still needs its `/`.
        states = _closure(tokens, {(0, False)})
        for char in path:
            following: set[tuple[int, bool]] = set()
            for index, inside in states:
                if index == end:
                    continue
                kind, value = tokens[index]
                if kind == _SLASHES:  # `(?:.*/)?`: any characters, then a `/`
                    following.add((index, True))
                    if char == "/":
                        following.add((index + 1, False))
                elif kind == _ANY_DEPTH:
                    following.add((index, False))
                elif kind == _LITERAL:
                    if value == char:
                        following.add((index + 1, False))
                elif char == "/":  # `*`, `?` and `[...]` stay within one folder
                    continue
                elif kind == _STAR:
                    following.add((index, False))
                elif kind == _ONE or value.fullmatch(char):
                    following.add((index + 1, False))
            if not following:
                return False
            states = _closure(tokens, following)
        return (end, False) in states

    def __repr__(self) -> str:
        return f"Glob({self.pattern!r})"


# Token kinds: a literal character, `?`, `[...]`, `*`, `**` (crosses folders) and `**/`
# (zero or more whole folders).
_LITERAL, _ONE, _CLASS, _STAR, _ANY_DEPTH, _SLASHES = range(6)


def _closure(tokens: list[tuple[int, object]], states: set[tuple[int, bool]]) -> set[tuple[int, bool]]:
    """`states` and those reached without consuming a character (a star may match nothing)."""
    pending = [state for state in states if not state[1]]
    while pending:
        index, _ = pending.pop()
        if index < len(tokens) and tokens[index][0] in (_STAR, _ANY_DEPTH, _SLASHES):
            following = (index + 1, False)
            if following not in states:
                states.add(following)
                pending.append(following)
    return states


def _glob_tokens(pattern: str) -> list[tuple[int, object]]:
    tokens: list[tuple[int, object]] = []
    index = 0
    while index < len(pattern):
        if pattern.startswith("**/", index):
            if not tokens or tokens[-1][0] != _SLASHES:  # `**/**/` is `**/`
                tokens.append((_SLASHES, None))
            index += 3
        elif pattern.startswith("**", index):
            tokens.append((_ANY_DEPTH, None))
            index += 2
        elif pattern[index] == "*":
            tokens.append((_STAR, None))
            index += 1
        elif pattern[index] == "?":
            tokens.append((_ONE, None))
            index += 1
        elif pattern[index] == "[" and "]" in pattern[index + 2 :]:
            end = pattern.index("]", index + 2)
            body = pattern[index + 1 : end]
            if body.startswith("!"):
                body = "^" + body[1:]
            tokens.append((_CLASS, re.compile("[" + body.replace("\\", "\\\\") + "]")))
            index = end + 1
        else:
            tokens.append((_LITERAL, pattern[index]))
            index += 1
    return tokens


def _regex(tokens: list[tuple[int, object]]) -> re.Pattern[str]:
    parts = {_ONE: "[^/]", _STAR: "[^/]*", _ANY_DEPTH: ".*", _SLASHES: "(?:.*/)?"}
    return re.compile(
        "".join(
            re.escape(value) if kind == _LITERAL else "(?!/)" + value.pattern if kind == _CLASS else parts[kind]
            for kind, value in tokens
        )
    )


def glob_regex(pattern: str) -> Glob:
    """An anchored glob: `*` and `?` stay within one folder, `**` crosses folders.
    Like a compiled regex, its `fullmatch(path)` says whether `path` matches."""
    return Glob(pattern)
