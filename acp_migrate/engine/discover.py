"""Turn the PATH arguments into the files to analyse.

Directories are walked for `*.py`/`*.pyi` (and Markdown, for report-only rules); explicit files are taken whatever
their extension. Symlinks met inside a walk are not followed (no loops, and
files outside the tree are not ours to rewrite); a symlink given explicitly is.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence

from pydantic import BaseModel

from acp_migrate.engine.files import describe_os_error

# Markdown too: its JSON examples are checked (report only).
SOURCE_SUFFIXES = (".py", ".pyi", ".md", ".markdown")

# Build output, unless it is itself a Python package (`pip/_internal/operations/build`).
BUILD_DIR_NAMES = frozenset({"build", "dist"})

SKIPPED_DIR_NAMES = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".venv",
        "__pycache__",
        "node_modules",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
    }
)


class PathError(BaseModel):
    """A PATH argument or a directory inside it that could not be looked at."""

    path: str
    reason: str


class Discovery(BaseModel):
    """Absolute file paths, sorted and de-duplicated, plus what could not be looked at."""

    files: list[str] = []
    errors: list[PathError] = []


def discover(paths: Sequence[str | os.PathLike[str]] = ()) -> Discovery:
    """Expand PATH arguments (default `.`) into the files to analyse."""
    errors: list[PathError] = []
    # Keyed by the resolved path so one file reached two ways is analysed once.
    found: dict[str, str] = {}

    def add(real_path: str, path: str) -> None:
        # The smallest spelling wins, so the argument order does not change the output.
        found[real_path] = min(found.get(real_path, path), path)

    for argument in paths or (".",):
        path = os.path.abspath(os.fspath(argument))
        if os.path.isdir(path):
            real_root = os.path.realpath(path)
            for file_path in _walk(path, errors):
                real_path = os.path.join(real_root, os.path.relpath(file_path, path))
                add(real_path, file_path)
        elif os.path.lexists(path) and not os.path.exists(path):
            errors.append(PathError(path=path, reason="broken symbolic link"))
        elif os.path.lexists(path):
            add(os.path.realpath(path), path)
        else:
            errors.append(PathError(path=path, reason=_missing_reason(path)))
    return Discovery(
        files=sorted(found.values()),
        errors=sorted(errors, key=lambda error: (error.path, error.reason)),
    )


def is_skipped_dir(entry: os.DirEntry[str]) -> bool:
    """Folders that never hold the project's own sources."""
    name = entry.name
    if name in SKIPPED_DIR_NAMES or name.endswith(".egg-info"):
        return True
    if name in BUILD_DIR_NAMES:
        return not os.path.isfile(os.path.join(entry.path, "__init__.py"))
    # Any virtualenv, whatever its name (`venv`, `env`, `.env311`, ...).
    return os.path.isfile(os.path.join(entry.path, "pyvenv.cfg"))


def _walk(root: str, errors: list[PathError]) -> Iterator[str]:
    pending = [root]
    while pending:
        directory = pending.pop()
        try:
            with os.scandir(directory) as listing:
                entries = list(listing)
        except OSError as exc:
            errors.append(PathError(path=directory, reason=describe_os_error(exc)))
            continue
        for entry in entries:
            try:
                if entry.is_symlink():
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if not is_skipped_dir(entry):
                        pending.append(entry.path)
                elif entry.name.endswith(SOURCE_SUFFIXES) and entry.is_file(follow_symlinks=False):
                    yield entry.path
            except OSError as exc:
                errors.append(PathError(path=entry.path, reason=describe_os_error(exc)))


def _missing_reason(path: str) -> str:
    try:
        os.stat(path)
    except OSError as exc:
        return describe_os_error(exc)
    return "no such file or directory"
