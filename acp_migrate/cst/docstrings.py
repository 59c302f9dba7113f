"""Remove a named entry from a docstring's parameter or attribute documentation.

Understands Google (`name: text`, `name (type): text`), NumPy (`name : type` plus an
indented description) and Sphinx (`:param name: text`, `:type name: text`) styles.
An entry's continuation lines are the more-indented lines that follow it. A section
left without entries loses its header too.
"""

from __future__ import annotations

import re

_GOOGLE_HEADERS = re.compile(
    r"(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Other Parameters|Attributes):\s*$"
)
_NUMPY_UNDERLINE = re.compile(r"-{3,}\s*$")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _entry_pattern(names: frozenset[str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(n) for n in sorted(names))
    return re.compile(
        rf"(?:(?:{alternatives})\s*(?:\([^)]*\))?\s*:"  # Google and NumPy
        rf"|:(?:param|parameter|arg|argument|key|keyword|type|ivar|var|cvar)\s+(?:[^:]*\s)?(?:{alternatives})\s*:)"
    )


def _continuation_end(lines: list[str], start: int) -> int:
    """Index after the entry starting at `start` (its more-indented lines)."""
    base = _indent(lines[start])
    end = start + 1
    probe = end
    while probe < len(lines):
        if not lines[probe].strip():
            probe += 1
            continue
        if _indent(lines[probe]) <= base:
            break
        probe += 1
        end = probe
    return end


def _is_header(lines: list[str], index: int) -> int:
    """Number of lines of a section header starting at `index` (0 when none)."""
    text = lines[index].strip()
    if _GOOGLE_HEADERS.fullmatch(text):
        return 1
    if index + 1 < len(lines) and text and _NUMPY_UNDERLINE.fullmatch(lines[index + 1].strip()):
        return 2
    return 0


def _drop_empty_sections(lines: list[str], touched: set[int]) -> list[str]:
    """Remove headers in `touched` (indices of headers whose entries were removed) that
    now have no entry under them, with one blank line around them."""
    result = list(lines)
    for header in sorted(touched, reverse=True):
        size = _is_header(result, header)
        if not size:
            continue
        following = header + size
        while following < len(result) and not result[following].strip():
            following += 1
        has_entry = (
            following < len(result)
            and result[following].strip()
            and _indent(result[following]) >= _indent(result[header])
            and not _is_header(result, following)
            and (size == 2 or _indent(result[following]) > _indent(result[header]))
        )
        if has_entry:
            continue
        start, stop = header, header + size
        if start > 0 and not result[start - 1].strip():
            start -= 1
        elif stop < len(result) and not result[stop].strip():
            stop += 1
        del result[start:stop]
    return result


def remove_entries(text: str, names: frozenset[str]) -> str | None:
    """`text` without the documentation of `names`, or None when none is documented."""
    pattern = _entry_pattern(names)
    lines = text.split("\n")
    keep: list[str] = []
    touched_headers: set[int] = set()
    last_header: int | None = None
    index = 0
    changed = False
    while index < len(lines):
        line = lines[index]
        if _is_header(lines, index):
            last_header = len(keep)
        if pattern.match(line.strip()):
            changed = True
            if last_header is not None:
                touched_headers.add(last_header)
            index = _continuation_end(lines, index)
            continue
        keep.append(line)
        index += 1
    if not changed:
        return None
    return "\n".join(_drop_empty_sections(keep, touched_headers))
