"""Where the modules a file imports live, so a rule can read a class defined in another
file of the project (an agent's setup handlers inherited from a base class).

Resolution is by file name only, as a reader of the project would do it: a relative
import from the importer's package; an absolute one from the importer's folder or
one of its ancestors that is no package's folder (`src/` layouts and packages alike: a
package's subpackage `acp/` is `pkg.acp`, never the SDK's `acp`). Installed packages
are not looked at: an SDK's classes are not the project's to rewrite.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from acp_migrate.rules.context import ModuleSource

# How far up from the importer an absolute import is looked for.
MAX_ANCESTORS = 8


def candidate_paths(module: str, importer: PurePath, is_package: Callable[[PurePath], bool]) -> list[PurePath]:
    """The files that may hold `module` when `importer` imports it, in search order
    (`is_package(folder)`: the folder holds an `__init__.py`)."""
    dots = len(module) - len(module.lstrip("."))
    parts = [part for part in module.lstrip(".").split(".") if part]
    if dots:
        base = importer.parent
        for _ in range(dots - 1):
            base = base.parent
        folders = [base]
    else:
        above = [folder for folder in importer.parent.parents[: MAX_ANCESTORS - 1] if not is_package(folder)]
        folders = [importer.parent, *above]
    found: list[PurePath] = []
    for folder in folders:
        if not parts:
            found.append(folder / "__init__.py")
            continue
        stem = folder.joinpath(*parts)
        found += [stem.with_name(stem.name + ".py"), stem / "__init__.py"]
    return found


def file_system_modules(importer: str) -> ModuleSource:
    """Modules read from the files next to (and above) the file at `importer`."""

    def source(module: str, importing: str | None) -> tuple[str, bytes] | None:
        # (a Path only when asked: a run makes one source per file of the tree)
        from acp_migrate.engine.analysis import MAX_PARSE_BYTES, within_parse_limits
        from acp_migrate.engine.execution.files import FileAccessError, read_source

        path = Path(importing or importer).absolute()
        for candidate in candidate_paths(module, path, lambda folder: (folder / "__init__.py").is_file()):
            try:
                # The guarded reader: a FIFO, a device or a huge file is not the module.
                found = read_source(str(candidate), limit=MAX_PARSE_BYTES)
            except FileAccessError:
                continue
            # One the parser cannot afford is not read either, as if it were not there.
            return (str(candidate), found) if within_parse_limits(found) else None
        return None

    return source


def in_memory_modules(files: dict[str, bytes], importer: str) -> ModuleSource:
    """The same search over `files` (relative POSIX path -> bytes), for tests and callers
    that hold a project in memory."""
    packages = {PurePath(name).parent for name in files if PurePath(name).name == "__init__.py"}

    def source(module: str, importing: str | None) -> tuple[str, bytes] | None:
        for candidate in candidate_paths(module, PurePath(importing or importer), packages.__contains__):
            key = candidate.as_posix()
            if key in files:
                return key, files[key]
        return None

    return source
