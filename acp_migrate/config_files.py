"""The configuration files of one run, each read once and parsed at most once: our own
`[tool.acp-migrate]` (`config.py`) and the project's ruff, black, isort and flake8
settings (`style.py`) share one `ConfigFiles`, so `pyproject.toml` is read once.

Every file goes through the guarded reader of project files
(`engine/execution/files.read_source`): regular files only, opened without blocking,
refused over `MAX_CONFIG_BYTES` before a byte is read. A FIFO named `pyproject.toml`
cannot hang a run, nor a `ruff.toml` linked to /dev/zero exhaust it.

The error policy, one for every file:
- a file that cannot be read (not a regular file, too large, no permission) counts as
  absent, whichever tool it configures; only the file `--config` names must be read;
- a file that reads but does not parse (not UTF-8, invalid TOML, nested too deeply for
  tomllib) is an error (`ConfigError`, exit 2) where it may configure us, and absent for
  another tool: the project's style never fails a run;
- what counts as absent though it is there is in `ignored`, which `--verbose` prints.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

from acp_migrate.engine.execution.files import FileAccessError, read_source

# Configuration is written by hand: a large project's pyproject.toml is tens of KB.
MAX_CONFIG_BYTES = 1024 * 1024
_MISSING = (errno.ENOENT, errno.ENOTDIR)


class ConfigError(Exception):
    """A configuration that cannot be used; the message names the file and the key."""


class ConfigFiles:
    """One run's reads of configuration files, by path: `config` and `style` share it."""

    def __init__(self) -> None:
        self._bytes: dict[Path, bytes | None] = {}
        self._toml: dict[Path, dict[str, Any] | str] = {}  # the table, or what is wrong
        self.ignored: dict[Path, str] = {}  # there, but counted as absent: why

    def read(self, path: Path) -> bytes | None:
        """The file's bytes; None when it is missing or cannot be read (`ignored` says why)."""
        if path not in self._bytes:
            try:
                self._bytes[path] = read_source(os.fspath(path), limit=MAX_CONFIG_BYTES)
            except FileAccessError as error:
                self._bytes[path] = None
                if getattr(error.__cause__, "errno", None) not in _MISSING:
                    self.ignored[path] = error.reason
        return self._bytes[path]

    def toml(self, path: Path, *, ours: bool, screen: tuple[bytes, ...] = ()) -> dict[str, Any]:
        """The file's TOML; {} when it cannot be read or holds none of the `screen` tokens
        (not parsed: most pyproject files configure none of the tools asked about). One
        that does not parse raises ConfigError when `ours`, else counts as absent."""
        raw = self.read(path)
        if raw is None or (screen and not any(token in raw for token in screen)):
            return {}
        if path not in self._toml:
            self._toml[path] = _parse_toml(raw)
        parsed = self._toml[path]
        if isinstance(parsed, dict):
            return parsed
        if ours:
            raise ConfigError(f"{path}: {parsed}")
        self.ignored[path] = parsed
        return {}

    def ini(self, path: Path) -> dict[str, dict[str, str]]:
        """The sections of an INI file (another tool's: one that does not parse counts as absent)."""
        raw = self.read(path)
        if raw is None:
            return {}
        import configparser  # here: most projects have none of these files

        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(raw.decode("utf-8"), source=os.fspath(path))
        except (configparser.Error, UnicodeDecodeError) as error:
            self.ignored[path] = "not UTF-8 text" if isinstance(error, UnicodeDecodeError) else "invalid INI"
            return {}
        return {name: dict(parser[name]) for name in parser.sections()}


def _parse_toml(raw: bytes) -> dict[str, Any] | str:
    """The table, or what is wrong with it."""
    import tomllib  # here: most runs parse no configuration

    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return "not UTF-8 text"
    except tomllib.TOMLDecodeError as error:
        return f"invalid TOML: {error}"
    except RecursionError:  # tomllib recurses per level of nesting
        return "invalid TOML: nested too deeply"
