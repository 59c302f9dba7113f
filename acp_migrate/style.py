"""The project's own Python style (`ProjectStyle`), read from its linter and formatter
configuration so that code `fix` writes (the vendored shim) looks like the project's.

Nearest first, as the tools themselves look: from the project root upward, the first
folder with a ruff configuration (`.ruff.toml`, `ruff.toml`, then a `pyproject.toml`
with `[tool.ruff]`) gives ruff's settings; the nearest `pyproject.toml` with
`[tool.black]` gives black's; the nearest `[tool.isort]`, `.isort.cfg`, `setup.cfg`,
`tox.ini` `[isort]` gives isort's; the nearest `setup.cfg`, `tox.ini` or `.flake8`
`[flake8]` gives flake8's. Each value comes from the first of ruff, black, isort
and flake8 that sets it, else the default (ruff's and black's: 88 columns, double
quotes).

- `line_length`: ruff `line-length`, black `line-length`, isort `line_length`,
  flake8 `max-line-length`;
- `quote`: ruff `format.quote-style` (`single`: `'`), else ruff's or flake8's
  flake8-quotes `inline-quotes`; black's `skip-string-normalization` and ruff's
  `preserve` keep the default (either quote is the project's then);
- `first_party`: ruff `lint.isort.known-first-party` and the top-level modules and
  packages in ruff's `src` folders (ruff's default: the root and `src/`, so a
  project's own `acp` package is found), isort's `known_first_party` and `src_paths`.

The files are read through the run's `config_files.ConfigFiles` (each once, guarded):
one that cannot be read or parsed counts as absent, so style never fails a run. Only
the standard library is imported (no LibCST): `config` calls `read_style` on every run.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from acp_migrate.config_files import ConfigFiles
from acp_migrate.settings import ProjectStyle

_DEFAULT = ProjectStyle()
# Cheap screens before parsing a file: the bytes a section of each tool holds.
_PYPROJECT_TOOLS = (b"ruff", b"black", b"isort")
_INI_FILES = ("setup.cfg", "tox.ini", ".flake8", ".isort.cfg")
_RUFF_SRC = [".", "src"]  # ruff's default `src`
_FORMAT_QUOTES = {"single": "'", "double": '"'}  # `preserve`: no preference
_INLINE_QUOTES = {"single": "'", "'": "'", "double": '"', '"': '"'}


def read_style(root: str | os.PathLike[str], files: ConfigFiles | None = None) -> ProjectStyle:
    """The style of the project at `root` (a folder), looking there and above."""
    folder = Path(root).absolute()
    tools = _Tools(folder, files or ConfigFiles())
    for current in (folder, *folder.parents):
        tools.look(current)
        if tools.complete():
            break
    return tools.style()


class _Tools:
    """The nearest configuration of each tool, as found walking up (and where it was)."""

    def __init__(self, root: Path, files: ConfigFiles) -> None:
        self.root, self.files = root, files
        self.ruff: tuple[dict[str, Any], Path] | None = None
        self.black: dict[str, Any] | None = None
        self.isort: tuple[dict[str, Any], Path] | None = None
        self.flake8: dict[str, Any] | None = None

    def complete(self) -> bool:
        return None not in (self.ruff, self.black, self.isort, self.flake8)

    def look(self, folder: Path) -> None:
        tool = _table(self._toml(folder / "pyproject.toml", _PYPROJECT_TOOLS), "tool")
        ini = {name: self.files.ini(folder / name) for name in _INI_FILES}
        if self.ruff is None:
            table = self._toml(folder / ".ruff.toml") or self._toml(folder / "ruff.toml") or _table(tool, "ruff")
            if table:
                self.ruff = table, folder
        if self.black is None and _table(tool, "black"):
            self.black = _table(tool, "black")
        if self.isort is None:
            cfg = ini[".isort.cfg"]
            table = _table(tool, "isort") or cfg.get("settings") or cfg.get("isort")
            table = table or ini["setup.cfg"].get("isort") or ini["tox.ini"].get("isort")
            if table:
                self.isort = table, folder
        if self.flake8 is None:
            self.flake8 = next(
                (ini[n]["flake8"] for n in ("setup.cfg", "tox.ini", ".flake8") if ini[n].get("flake8")), None
            )

    def _toml(self, path: Path, screen: tuple[bytes, ...] = ()) -> dict[str, Any]:
        return self.files.toml(path, ours=False, screen=screen)

    def style(self) -> ProjectStyle:
        ruff, ruff_root = self.ruff or ({}, self.root)
        isort, isort_root = self.isort or ({}, self.root)
        black, flake8 = self.black or {}, self.flake8 or {}
        lint = _table(ruff, "lint")
        # `lint.isort` and `lint.flake8-quotes`, or their older top-level spelling.
        ruff_isort = _table(lint, "isort") or _table(ruff, "isort")
        ruff_quotes = _table(lint, "flake8-quotes") or _table(ruff, "flake8-quotes")
        lengths = (
            _get(ruff, "line-length"),
            _get(black, "line-length"),
            _get(isort, "line_length"),
            _get(flake8, "max-line-length"),
        )
        quotes = (
            _FORMAT_QUOTES.get(_str(_get(_table(ruff, "format"), "quote-style"))),
            _INLINE_QUOTES.get(_str(_get(ruff_quotes, "inline-quotes"))),
            _INLINE_QUOTES.get(_str(_get(flake8, "inline-quotes"))),
        )
        first_party = {
            *_names(_get(ruff_isort, "known-first-party")),
            *_modules_in(ruff_root, _names(ruff.get("src", _RUFF_SRC))),
            *_names(_get(isort, "known_first_party")),
            *_modules_in(isort_root, _names(_get(isort, "src_paths"))),
        }
        return ProjectStyle(
            line_length=next((n for n in map(_length, lengths) if n is not None), _DEFAULT.line_length),
            quote=next((q for q in quotes if q is not None), _DEFAULT.quote),
            first_party=tuple(sorted(first_party)),
        )


def _table(table: dict[str, Any], key: str) -> dict[str, Any]:
    value = table.get(key)
    return value if isinstance(value, dict) else {}


def _length(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return None
    try:
        length = int(value)
    except ValueError:
        return None
    return length if 20 <= length <= 1000 else None  # else not a line length anyone formats to


def _get(table: dict[str, Any], key: str) -> Any:
    """`table[key]`, the key spelled with hyphens or underscores (the tools take both)."""
    for spelling in (key, key.replace("_", "-"), key.replace("-", "_")):
        if spelling in table:
            return table[spelling]
    return None


def _str(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) else None


def _names(value: Any) -> list[str]:
    """A TOML list or an INI value (comma or newline separated) as a list of strings."""
    if isinstance(value, str):
        value = value.replace("\n", ",").split(",")
    if not isinstance(value, list):
        return []
    return [item.strip() for item in value if isinstance(item, str) and item.strip()]


def _modules_in(base: Path, folders: list[str]) -> set[str]:
    """The top-level modules and packages in `folders` (relative to `base`)."""
    found: set[str] = set()
    for folder in folders:
        path = base / folder
        try:
            entries = list(os.scandir(path))
        except OSError:
            continue
        for entry in entries:
            name, ext = os.path.splitext(entry.name)
            try:  # a link loop or a vanished entry is no module
                if entry.is_dir() and entry.name.isidentifier():
                    if os.path.isfile(os.path.join(entry.path, "__init__.py")):
                        found.add(entry.name)
                elif ext in (".py", ".pyi") and name.isidentifier() and entry.is_file():
                    found.add(name)
            except OSError:
                continue
    return found
