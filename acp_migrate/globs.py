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
        self._anchored: list[tuple[re.Pattern[str], bool]] = []  # (regex, folders only)
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


def glob_regex(pattern: str) -> re.Pattern[str]:
    """A regex for an anchored glob: `*` and `?` stay within one folder, `**` crosses folders."""
    out: list[str] = []
    index = 0
    while index < len(pattern):
        if pattern.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
        elif pattern.startswith("**", index):
            out.append(".*")
            index += 2
        elif pattern[index] == "*":
            out.append("[^/]*")
            index += 1
        elif pattern[index] == "?":
            out.append("[^/]")
            index += 1
        elif pattern[index] == "[" and "]" in pattern[index + 2 :]:
            end = pattern.index("]", index + 2)
            body = pattern[index + 1 : end]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
            index = end + 1
        else:
            out.append(re.escape(pattern[index]))
            index += 1
    return re.compile("".join(out))
