"""acp-migrate: move ACP slash commands from `initialize` to per-session advertisement.

This package root stays import-light on purpose: migrated servers import
`acp_migrate.runtime` at run time and must not pay for libcst or typer. The public
API (`from acp_migrate import check_paths, fix_source, ...`, see `acp_migrate.api`)
is loaded on first use.
"""

from __future__ import annotations

import sys as _sys


def _not_from_the_current_folder() -> None:
    # `python -m acp_migrate` puts the current folder first on sys.path, and this package
    # is imported before its __main__: the scanned project's own `typing.py` or `ast.py`
    # must not be imported instead of the standard library's. Only for that command:
    # a server that imports the shim keeps its path.
    argv = getattr(_sys, "orig_argv", [])
    ran = any(
        (arg == "-m" and argv[index + 1 : index + 2] == [__name__]) or arg == "-m" + __name__
        for index, arg in enumerate(argv)
    )
    if ran and _sys.path and _sys.path[0] in ("", __import__("os").getcwd()):
        del _sys.path[0]


_not_from_the_current_folder()

from typing import TYPE_CHECKING, Any

from acp_migrate.version import __version__

__all__ = [
    "ConfigError",
    "Finding",
    "Options",
    "RuleInfo",
    "RunReport",
    "SourceReport",
    "__version__",
    "check_paths",
    "check_source",
    "diff_paths",
    "diff_source",
    "fix_paths",
    "fix_source",
    "list_rules",
    "load_options",
    "rule_info",
]
_API = frozenset(__all__) - {"__version__"}

if TYPE_CHECKING:
    from acp_migrate.api import (
        ConfigError,
        Finding,
        Options,
        RuleInfo,
        RunReport,
        SourceReport,
        check_paths,
        check_source,
        diff_paths,
        diff_source,
        fix_paths,
        fix_source,
        list_rules,
        load_options,
        rule_info,
    )


def __getattr__(name: str) -> Any:
    if name in _API:
        from acp_migrate import api

        return getattr(api, name)
    raise AttributeError(f"module 'acp_migrate' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_API})
